package probes

import "unsafe"

// chunkScanner reads an event's data in one pass, without a general-purpose
// decoder and without allocating, when the chunk has one of the shapes
// nearly every event of a stream has: choice 0's delta with content,
// reasoning_content, reasoning or refusal as a string or null, a
// finish_reason, usage, x_groq, timings and error null or absent, and any
// other member (id, object, created, logprobs, role, ...) skipped after it
// is checked to be valid JSON. Anything else (usage, tool calls, content
// parts, an error, more than one choice, a key written with escapes or
// capitals, a string with \u surrogates or escapes beside non-ASCII bytes,
// a repeated member, invalid JSON) goes to decodeChunk, the full decoder,
// which is the definition: where scan answers it answers as decodeChunk
// does (FuzzChunkScanner, and FuzzChunkTemplate for the template).
type chunkScanner struct {
	p        []byte // the data being read
	i        int    // the next byte of p
	scratch  []byte // the unescaped strings of the data being read
	template chunkTemplate
}

// decode reads one event's data into d (a zero delta): by the template of
// the chunk before (template.go), else by scan, else by the full decoder.
// served is the stream's, the same at every call. The delta's texts may be views of
// payload or of the scanner's own buffer: they are valid until the next call.
func (s *chunkScanner) decode(payload []byte, served *Served, d *delta) error {
	if s.fromTemplate(payload, d) {
		return nil
	}
	var ok bool
	if *d, ok = s.scan(payload, served); ok {
		return nil
	}
	var err error
	*d, err = decodeChunk(payload, served)
	return err
}

// scannedChunk is what scan found, applied only once the whole chunk is read.
type scannedChunk struct {
	seen                         uint32 // members read, by bit (once)
	index                        int
	texts                        [4]deltaText // by textContent, ...
	finish                       string
	model, fingerprint, provider []byte // raw JSON values
}

// deltaText is one of a delta's text members: its value, and where its
// string is in the chunk (from its opening quote to after its closing one;
// at == end when it is null or absent).
type deltaText struct {
	value   string
	at, end int
}

// The text members of a delta, as scannedChunk.texts holds them.
const (
	textContent = iota
	textRefusal
	textReasoningContent
	textReasoning
)

// maxSkipDepth bounds the nesting of a skipped value; deeper goes to the
// full decoder.
const maxSkipDepth = 16

func (s *chunkScanner) scan(payload []byte, served *Served) (delta, bool) {
	s.p, s.i, s.scratch = payload, 0, s.scratch[:0]
	var c scannedChunk
	if !s.object(&c, topLevel) || !s.atEnd() {
		return delta{}, false
	}
	setFirst(&served.Model, c.model)
	setFirst(&served.Fingerprint, c.fingerprint)
	setFirst(&served.Provider, c.provider)
	s.keepTemplate(&c)
	var d delta
	if c.index == 0 {
		d.Content = c.texts[textContent].value + c.texts[textRefusal].value
		d.Reasoning = c.texts[textReasoningContent].value + c.texts[textReasoning].value
		d.FinishReason = finishReason(c.finish)
	}
	return d, true
}

// The objects of a chunk the scanner reads member by member.
type chunkLevel int

const (
	topLevel chunkLevel = iota
	choiceLevel
	deltaLevel
)

// object reads an object of the given level, key by key.
func (s *chunkScanner) object(c *scannedChunk, level chunkLevel) bool {
	s.space()
	if !s.eat('{') {
		return false
	}
	for first := true; ; first = false {
		key, plain, more, ok := s.member(first)
		if !ok || more && !plain {
			return false
		}
		if !more {
			return true
		}
		switch level {
		case topLevel:
			ok = s.topMember(c, key)
		case choiceLevel:
			ok = s.choiceMember(c, key)
		case deltaLevel:
			ok = s.deltaMember(c, key)
		}
		if !ok {
			return false
		}
	}
}

// once marks a member once read, so a repeated one goes to the full
// decoder (where the last wins, or a first text is kept).
func (c *scannedChunk) once(bit uint32) bool {
	if c.seen&bit != 0 {
		return false
	}
	c.seen |= bit
	return true
}

func (s *chunkScanner) topMember(c *scannedChunk, key string) bool {
	switch key {
	case "choices":
		return c.once(1<<0) && s.choices(c)
	case "model":
		return c.once(1<<1) && s.raw(&c.model)
	case "system_fingerprint":
		return c.once(1<<2) && s.raw(&c.fingerprint)
	case "provider":
		return c.once(1<<3) && s.raw(&c.provider)
	case "usage", "x_groq", "timings", "error":
		return s.null()
	}
	return s.skip(0)
}

// choices reads an array of no choice or one.
func (s *chunkScanner) choices(c *scannedChunk) bool {
	if !s.eat('[') {
		return false
	}
	s.space()
	if s.eat(']') {
		return true
	}
	if !s.object(c, choiceLevel) {
		return false
	}
	s.space()
	return s.eat(']')
}

func (s *chunkScanner) choiceMember(c *scannedChunk, key string) bool {
	switch key {
	case "index":
		return c.once(1<<4) && s.index(&c.index)
	case "delta":
		return c.once(1<<5) && (s.null() || s.object(c, deltaLevel))
	case "finish_reason":
		// ASCII without escapes, as every finish reason is: the full
		// decoder's own string decoding is not text's.
		return c.once(1<<6) && (s.null() || s.plainString(&c.finish))
	}
	return s.skip(0)
}

func (s *chunkScanner) deltaMember(c *scannedChunk, key string) bool {
	switch key {
	case "content":
		return c.once(1<<7) && s.text(&c.texts[textContent])
	case "refusal":
		return c.once(1<<8) && s.text(&c.texts[textRefusal])
	case "reasoning_content":
		return c.once(1<<9) && s.text(&c.texts[textReasoningContent])
	case "reasoning":
		return c.once(1<<10) && s.text(&c.texts[textReasoning])
	case "tool_calls": // null or [] carries no call
		if s.null() {
			return true
		}
		if !s.eat('[') {
			return false
		}
		s.space()
		return s.eat(']')
	}
	return s.skip(0)
}

// member reads the next member's key and colon of the object being read;
// more is false at the object's end. plain says the key is made of a-z, 0-9
// and _ only, so that no other key matches it (the full decoder matches
// keys without regard to case).
func (s *chunkScanner) member(first bool) (key string, plain, more, ok bool) {
	s.space()
	if s.eat('}') { // after the opening or after a member
		return "", false, false, true
	}
	if !first {
		if !s.eat(',') {
			return "", false, false, false
		}
		s.space()
	}
	raw, plain, ok := s.key()
	if !ok {
		return "", false, false, false
	}
	s.space()
	if !s.eat(':') {
		return "", false, false, false
	}
	s.space()
	return view(raw), plain, true, true
}

// key reads a member's key; plain says it is made of a-z, 0-9 and _ only.
func (s *chunkScanner) key() (raw []byte, plain, ok bool) {
	start := s.i + 1
	if !s.eat('"') {
		return nil, false, false
	}
	for s.i < len(s.p) && plainKeyByte[s.p[s.i]] {
		s.i++
	}
	if s.eat('"') {
		return s.p[start : s.i-1], true, true
	}
	s.i = start - 1
	raw, _, _, ok = s.scanString()
	return raw, false, ok
}

var plainKeyByte = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_'
	}
	return t
}()

// text reads null (leaving t's value "") or a string into t, as the full
// decoder's text does.
func (s *chunkScanner) text(t *deltaText) bool {
	if s.null() {
		return true
	}
	t.at = s.i
	raw, escaped, nonASCII, ok := s.scanString()
	t.end = s.i
	switch {
	case !ok || escaped && nonASCII:
		return false
	case escaped:
		return s.unescape(raw, &t.value)
	}
	t.value = view(raw)
	return true
}

// plainString reads a string without escapes or non-ASCII bytes.
func (s *chunkScanner) plainString(dst *string) bool {
	raw, escaped, nonASCII, ok := s.scanString()
	*dst = view(raw)
	return ok && !escaped && !nonASCII
}

// raw reads any value and keeps its JSON text.
func (s *chunkScanner) raw(dst *[]byte) bool {
	start := s.i
	if !s.skip(0) {
		return false
	}
	*dst = s.p[start:s.i]
	return true
}

// index reads a small non-negative integer.
func (s *chunkScanner) index(dst *int) bool {
	start, n := s.i, 0
	for s.i < len(s.p) && '0' <= s.p[s.i] && s.p[s.i] <= '9' && s.i-start < 9 {
		n = n*10 + int(s.p[s.i]-'0')
		s.i++
	}
	*dst = n
	digits := s.i - start
	return digits > 0 && (digits == 1 || s.p[start] != '0') && !s.peekIn("0123456789.eE")
}

func (s *chunkScanner) null() bool { return s.literal("null") }

// finishReason is the finish reason as a string of its own: the common ones
// as constants, so that a view of the chunk never outlives it.
func finishReason(v string) string {
	switch v {
	case "":
		return ""
	case "stop":
		return "stop"
	case "length":
		return "length"
	case "tool_calls":
		return "tool_calls"
	case "content_filter":
		return "content_filter"
	}
	return string([]byte(v))
}

// setFirst sets *dst to the text of raw (a value read, or nil) unless *dst
// has a text already, as firstText does.
func setFirst(dst *string, raw []byte) {
	if raw != nil && *dst == "" {
		*dst = text(raw)
	}
}

// view is b as a string without a copy: valid while b's bytes are not
// written, which for the scanner's texts is until its next decode.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
