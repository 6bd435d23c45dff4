package probes

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// The JSON grammar as chunkScanner needs it (RFC 8259): whatever these
// accept is valid JSON, so the full decoder would accept it too.

func (s *chunkScanner) space() {
	for s.i < len(s.p) {
		switch s.p[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *chunkScanner) eat(b byte) bool {
	if s.i < len(s.p) && s.p[s.i] == b {
		s.i++
		return true
	}
	return false
}

func (s *chunkScanner) peekIn(set string) bool {
	return s.i < len(s.p) && strings.IndexByte(set, s.p[s.i]) >= 0
}

func (s *chunkScanner) atEnd() bool {
	s.space()
	return s.i == len(s.p)
}

func (s *chunkScanner) literal(word string) bool {
	if len(s.p)-s.i >= len(word) && string(s.p[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// scanString reads a string and returns what is between its quotes, whether
// it has escapes and whether it has bytes outside ASCII.
func (s *chunkScanner) scanString() (raw []byte, escaped, nonASCII, ok bool) {
	if !s.eat('"') {
		return nil, false, false, false
	}
	start := s.i
	for {
		s.skipPlain()
		for s.i < len(s.p) && plainStringByte[s.p[s.i]] {
			s.i++
		}
		if s.i == len(s.p) {
			return nil, false, false, false
		}
		switch c := s.p[s.i]; {
		case c == '"':
			s.i++
			return s.p[start : s.i-1], escaped, nonASCII, true
		case c == '\\':
			escaped = true
			if !s.escape() {
				return nil, false, false, false
			}
		case c >= utf8.RuneSelf:
			nonASCII = true
			s.i++
		default: // a control character
			return nil, false, false, false
		}
	}
}

// skipPlain moves past the bytes of a string that need no second look,
// eight at a time while none of the eight is a quote, a backslash, a control
// character or outside ASCII, then to the first of the eight that is one: a
// delta's text (" cache") ends in its first eight bytes, which were read a
// byte at a time after this.
func (s *chunkScanner) skipPlain() {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for s.i+8 <= len(s.p) {
		x := binary.LittleEndian.Uint64(s.p[s.i:])
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		// (v − ones) &^ v & highs is not 0 when a byte of v is 0 (or, for
		// x itself, below 0x20 once bytes ≥ 0x80 are ruled out by x & highs).
		// A borrow may mark a byte after the first that is 0, never one
		// before it: the lowest mark is the first special byte.
		special := ((quote-ones)&^quote | (backslash-ones)&^backslash | (x-ones*0x20)&^x | x) & highs
		if special != 0 {
			s.i += bits.TrailingZeros64(special) / 8
			return
		}
		s.i += 8
	}
}

// plainStringByte: the bytes a string holds as they are, ASCII only.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// escape reads one escape sequence, at its backslash.
func (s *chunkScanner) escape() bool {
	if s.i+1 >= len(s.p) {
		return false
	}
	if s.p[s.i+1] != 'u' {
		s.i += 2
		return strings.IndexByte(`"\/bfnrt`, s.p[s.i-1]) >= 0
	}
	if s.i+6 > len(s.p) {
		return false
	}
	for _, h := range s.p[s.i+2 : s.i+6] {
		if !isHex(h) {
			return false
		}
	}
	s.i += 6
	return true
}

func isHex(b byte) bool { return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F' }

// unescape sets *dst to the value of raw, a valid ASCII string's inside with
// escapes, written to the scanner's scratch; false for a \u surrogate,
// whose pairing the full decoder settles.
func (s *chunkScanner) unescape(raw []byte, dst *string) bool {
	start := len(s.scratch)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			s.scratch = append(s.scratch, c)
			continue
		}
		i++
		switch e := raw[i]; e {
		case 'b':
			s.scratch = append(s.scratch, '\b')
		case 'f':
			s.scratch = append(s.scratch, '\f')
		case 'n':
			s.scratch = append(s.scratch, '\n')
		case 'r':
			s.scratch = append(s.scratch, '\r')
		case 't':
			s.scratch = append(s.scratch, '\t')
		case 'u':
			r := rune(0)
			for _, h := range raw[i+1 : i+5] {
				r = r<<4 | rune(hexValue(h))
			}
			if 0xD800 <= r && r < 0xE000 {
				return false
			}
			s.scratch = utf8.AppendRune(s.scratch, r)
			i += 4
		default: // " \ /
			s.scratch = append(s.scratch, e)
		}
	}
	*dst = view(s.scratch[start:])
	return true
}

func hexValue(h byte) byte {
	switch {
	case h <= '9':
		return h - '0'
	case h <= 'F':
		return h - 'A' + 10
	}
	return h - 'a' + 10
}

// skip reads any value, nested at most maxSkipDepth deep.
func (s *chunkScanner) skip(depth int) bool {
	if s.i >= len(s.p) || depth > maxSkipDepth {
		return false
	}
	switch s.p[s.i] {
	case '"':
		_, _, _, ok := s.scanString()
		return ok
	case '{':
		s.i++
		for first := true; ; first = false {
			_, _, more, ok := s.member(first)
			if !ok || !more {
				return ok
			}
			if !s.skip(depth + 1) {
				return false
			}
		}
	case '[':
		s.i++
		s.space()
		if s.eat(']') {
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			s.space()
			if s.eat(']') {
				return true
			}
			if !s.eat(',') {
				return false
			}
			s.space()
		}
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.null()
	}
	return s.number()
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *chunkScanner) number() bool {
	s.eat('-')
	if !s.eat('0') && s.digits() == 0 {
		return false
	}
	if s.eat('.') && s.digits() == 0 {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *chunkScanner) digits() int {
	start := s.i
	for s.i < len(s.p) && '0' <= s.p[s.i] && s.p[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}
