package probes

import "bytes"

// chunkTemplate is the last chunk the scanner read whose only text was one
// string member: its bytes before that string and after it. A stream's
// chunks mostly differ in nothing but their text (the same id, model,
// created, keys in the same order), so a chunk that starts and ends with the
// template's bytes is that chunk with another text. Reading it costs two
// comparisons and the scan of its one string, where scan walks every member:
// the JSON parser's state after the string does not depend on what the
// string holds, so the result is scan's. It holds no text of the chunk it
// came from (every other text member was empty or null, and no
// finish_reason), and the served fields its bytes set are already set.
type chunkTemplate struct {
	before, after []byte
	field         int // the text member that varies (textContent, ...); -1 for no template
}

// keepTemplate makes the chunk just scanned the template, when it has one
// text and nothing else that would be the template's to repeat.
func (s *chunkScanner) keepTemplate(c *scannedChunk) {
	t := &s.template
	t.field = -1
	if c.index != 0 || c.finish != "" {
		return
	}
	only := -1
	for field, text := range c.texts {
		if text.value != "" {
			if only >= 0 {
				return
			}
			only = field
		}
	}
	if only < 0 {
		return
	}
	text := c.texts[only]
	t.before = append(t.before[:0], s.p[:text.at]...)
	t.after = append(t.after[:0], s.p[text.end:]...)
	t.field = only
}

// fromTemplate reads payload by the template into d (a zero delta), when it
// fits. It writes its one text into the caller's delta: a delta is a dozen
// words, and returning one by value copies it at every event.
func (s *chunkScanner) fromTemplate(payload []byte, d *delta) bool {
	t := &s.template
	if t.field < 0 || len(t.before) == 0 || len(payload) <= len(t.before)+len(t.after) ||
		!bytes.HasPrefix(payload, t.before) || !bytes.HasSuffix(payload, t.after) || payload[len(t.before)] != '"' {
		return false
	}
	s.p, s.i, s.scratch = payload, len(t.before), s.scratch[:0]
	var text deltaText
	if !s.text(&text) || s.i != len(payload)-len(t.after) {
		return false
	}
	if t.field == textContent || t.field == textRefusal {
		d.Content = text.value
	} else {
		d.Reasoning = text.value
	}
	return true
}
