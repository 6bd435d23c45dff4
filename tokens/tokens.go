// Package tokens counts o200k_base tokens, the one scale on which tpsrace
// compares providers whose own tokenizers differ. It is tiktoken's o200k_base
// encoder reduced to counting: a hand-written pre-tokeniser (pretokenize.go),
// byte-pair merging (bpe.go) and the vocabulary compiled into the binary in a
// compact form (vocab.go), so nothing is ever downloaded. Counts equal
// tiktoken's exactly (TestMatchesTiktoken).
package tokens

import (
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Count returns the number of o200k tokens in s (tiktoken's EncodeOrdinary:
// special tokens are plain text). Safe for concurrent use.
func Count(s string) int {
	if s == "" {
		return 0
	}
	v := &o200kVocab
	// Most streamed deltas are one token, which one lookup settles.
	if _, single, _ := v.lookup(s); single {
		return 1
	}
	s = validUTF8(s)
	n, _ := v.countPieces(s, len(s), nil)
	return n
}

// countPieces counts the tokens of the pieces of s (valid UTF-8) that start
// before limit, a piece boundary. parts is scratch space for bpeCount.
func (v *vocab) countPieces(s string, limit int, parts []bpePart) (int, []bpePart) {
	n := 0
	for i := 0; i < limit; {
		end := nextPiece(s, i)
		var k int
		k, parts = v.count(s[i:end], parts)
		n += k
		i = end
	}
	return n, parts
}

// count is the number of tokens in one piece: one when the piece is itself
// a token (most are), else what byte-pair merging makes of it.
func (v *vocab) count(piece string, parts []bpePart) (int, []bpePart) {
	if v.rank(piece) >= 0 {
		return 1, parts
	}
	return v.bpeCount(piece, parts)
}

// validUTF8 replaces every byte that is not part of valid UTF-8 with U+FFFD,
// one for one, as tiktoken does (its regexp reads the text as runes).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}

// Counter counts a text that arrives in parts (a stream's deltas) as it
// arrives: Total is always Count of everything added so far, but the text is
// pre-tokenised once, in batches, not again at every Add. A piece is settled
// once two more pieces follow it: no alternative of the o200k expression
// looks further than the piece after next before deciding where a piece ends
// (see pretokenize.go), so later text cannot move its end. Add only appends
// until settleBatch bytes wait, then settles all but the last two pieces:
// a stream's one-token deltas cost a copy each and a share of one pass over
// the text, where settling at every Add went over the last pieces again each
// time (BenchmarkCounter). Text is held back while it ends inside a UTF-8
// sequence. A Counter is used by one goroutine; counters share nothing but
// the read-only vocabulary.
type Counter struct {
	settled int    // tokens of the settled pieces
	tail    []byte // valid UTF-8 since the last settled piece
	partial []byte // an incomplete UTF-8 sequence at the end, held back
	known   []span // where in tail AddCounted put a delta that is one token
	starts  []int  // scratch: piece starts in tail
	parts   []bpePart
}

// span is a part of a Counter's tail, [start, end).
type span struct{ start, end int }

// settleBatch is how much text a Counter holds before settling it: a few
// dozen deltas, and at most one batch more memory a stream.
const settleBatch = 256

// Add appends s to the counted text.
func (c *Counter) Add(s string) {
	if s == "" {
		return
	}
	if len(c.partial) == 0 && incompleteSuffix(s) == 0 && utf8.ValidString(s) {
		c.tail = append(c.tail, s...) // the common case: whole characters
	} else {
		c.partial = append(c.partial, s...)
		complete := len(c.partial) - incompleteSuffix(c.partial)
		if whole := c.partial[:complete]; utf8.Valid(whole) {
			c.tail = append(c.tail, whole...)
		} else {
			c.tail = append(c.tail, validUTF8(string(whole))...)
		}
		c.partial = c.partial[:copy(c.partial, c.partial[complete:])]
	}
	if len(c.tail) >= settleBatch {
		c.settle()
	}
}

// AddCounted appends s, as Add does, and returns Count(s), the figure of
// the delta itself. Each token is looked up once for both counts: a delta
// that is one token (most are), or each piece of a longer delta that is a
// token, is remembered as a known span of the text, and where settle finds
// a piece of the whole text that is exactly such a span, it counts 1
// without a second lookup (the span's bytes are a token wherever the
// pieces of the whole text fall). A delta that is not whole characters, or
// follows one that was not, takes Add's way.
func (c *Counter) AddCounted(s string) int {
	if s == "" {
		return 0
	}
	v := &o200kVocab
	n := 1
	if len(c.partial) != 0 {
		c.Add(s)
		return Count(s)
	}
	switch one, valid := v.oneToken(s); {
	case one:
		c.known = append(c.known, span{len(c.tail), len(c.tail) + len(s)})
	case valid:
		n = c.countKnown(s)
	default:
		c.Add(s)
		return Count(s)
	}
	c.tail = append(c.tail, s...)
	if len(c.tail) >= settleBatch {
		c.settle()
	}
	return n
}

// countKnown counts the tokens of s (valid UTF-8, about to be appended to
// tail) piece by piece, as Count does, and remembers where each piece that
// is a token will lie in tail.
func (c *Counter) countKnown(s string) int {
	v, n := &o200kVocab, 0
	for i := 0; i < len(s); {
		end := nextPiece(s, i)
		if v.rank(s[i:end]) >= 0 {
			c.known = append(c.known, span{len(c.tail) + i, len(c.tail) + end})
			n++
		} else {
			var k int
			k, c.parts = v.bpeCount(s[i:end], c.parts)
			n += k
		}
		i = end
	}
	return n
}

// settle counts every piece of tail but the last two.
func (c *Counter) settle() {
	// tail views c.tail's bytes, which do not change until settle returns.
	tail := unsafe.String(unsafe.SliceData(c.tail), len(c.tail))
	c.starts = c.starts[:0]
	for i := 0; i < len(tail); i = nextPiece(tail, i) {
		c.starts = append(c.starts, i)
	}
	if len(c.starts) <= 2 {
		return
	}
	v, known := &o200kVocab, c.known
	for k := range len(c.starts) - 2 {
		piece := span{c.starts[k], c.starts[k+1]}
		for len(known) > 0 && known[0].start < piece.start {
			known = known[1:]
		}
		if len(known) > 0 && known[0] == piece {
			c.settled++
			continue
		}
		var n int
		n, c.parts = v.count(tail[piece.start:piece.end], c.parts)
		c.settled += n
	}
	keep := c.starts[len(c.starts)-2]
	c.tail = append(c.tail[:0], c.tail[keep:]...)
	c.known = c.known[:0]
	for _, sp := range known {
		if sp.start >= keep {
			c.known = append(c.known, span{sp.start - keep, sp.end - keep})
		}
	}
}

// Total returns Count of all the text added.
func (c *Counter) Total() int {
	return c.settled + Count(string(c.tail)+validUTF8(string(c.partial)))
}

// incompleteSuffix is the length of a UTF-8 sequence at the end of b that
// more bytes could still complete (0 when b ends on a whole character).
func incompleteSuffix[T string | []byte](b T) int {
	for n := 1; n <= min(utf8.UTFMax-1, len(b)); n++ {
		if c := b[len(b)-n]; c >= 0xC0 { // a leading byte
			if !utf8.FullRune([]byte(b[len(b)-n:])) {
				return n
			}
			return 0
		} else if c < 0x80 {
			return 0
		}
	}
	return 0
}

// Warm reads a byte of every page of the vocabulary (about 1,400 pages,
// about a millisecond), so that the first counts of a process, in its first
// race, take no page faults while its streams start. It reads them once a
// process, whoever calls it and from however many goroutines (the
// simulator and the racing client, in one test binary); a later caller
// waits for the first.
var Warm = sync.OnceFunc(func() {
	var sum byte
	for i := 0; i < len(o200kBin); i += 4096 {
		sum += o200kBin[i]
	}
	warmed = sum
})

// warmed keeps Warm's reads from being optimised away.
var warmed byte
