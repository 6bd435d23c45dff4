package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The o200k_base pre-tokeniser, by hand. tiktoken splits text into pieces
// with this regular expression (alternatives tried in order at each
// position, the first that matches wins, quantifiers greedy with
// backtracking) before it runs BPE on each piece:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// nextPiece computes the same match without a regexp engine: each
// alternative's backtracking is worked out below. TestMatchesTiktoken and
// FuzzMatchesTiktoken hold it to tiktoken's own regexp.

// class is what the expression asks of one character.
type class uint8

const (
	upper   class = 1 << iota // \p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}
	lower                     // \p{Ll}\p{Lm}\p{Lo}\p{M}
	letter                    // \p{L}
	number                    // \p{N}
	space                     // \s (unicode.IsSpace)
	newline                   // \r or \n
)

// ascii holds the classes of the first 128 characters, the common case.
var ascii = func() (t [utf8.RuneSelf]class) {
	for r := range rune(utf8.RuneSelf) {
		t[r] = classify(r)
	}
	return t
}()

func classify(r rune) class {
	var c class
	switch {
	case unicode.In(r, unicode.Lu, unicode.Lt):
		c = upper | letter
	case unicode.Is(unicode.Ll, r):
		c = lower | letter
	case unicode.In(r, unicode.Lm, unicode.Lo):
		c = upper | lower | letter
	case unicode.Is(unicode.M, r):
		c = upper | lower
	case unicode.Is(unicode.N, r):
		c = number
	case unicode.IsSpace(r):
		c = space
		if r == '\r' || r == '\n' {
			c |= newline
		}
	}
	return c
}

// at returns the class and width of the character at s[i:]; s is valid UTF-8.
func at(s string, i int) (class, int) {
	if s[i] < utf8.RuneSelf {
		return ascii[s[i]], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classify(r), w
}

// isPrefix: [^\r\n\p{L}\p{N}], the optional character before a word.
func isPrefix(c class) bool { return c&(newline|letter|number) == 0 }

// isSymbol: [^\s\p{L}\p{N}].
func isSymbol(c class) bool { return c&(space|letter|number) == 0 }

// nextPiece returns the end of the piece that starts at s[i] (i < len(s)).
// Most pieces of a text are a word of ASCII lowercase letters, with a space
// before it or not: read byte by byte, they end where the letters do (with
// a contraction after them), which is what the first alternative gives
// them. A word that goes on in a non-ASCII character takes piece's way.
func nextPiece(s string, i int) int {
	j := i
	if s[j] == ' ' && j+1 < len(s) {
		j++
	}
	if 'a' <= s[j] && s[j] <= 'z' {
		for j++; j < len(s) && 'a' <= s[j] && s[j] <= 'z'; j++ {
		}
		if j == len(s) || s[j] < utf8.RuneSelf {
			return j + contraction(s, j)
		}
	}
	return piece(s, i)
}

// piece is nextPiece for any text, alternative by alternative.
func piece(s string, i int) int {
	c, w := at(s, i)
	for _, word := range [...]func(string, int) int{wordLower, wordUpper} {
		if isPrefix(c) && i+w < len(s) {
			if end := word(s, i+w); end > 0 {
				return end + contraction(s, end)
			}
		}
		if end := word(s, i); end > 0 {
			return end + contraction(s, end)
		}
	}
	if c&number != 0 { // \p{N}{1,3}
		end := i + w
		for n := 1; n < 3 && end < len(s); n++ {
			c, w := at(s, end)
			if c&number == 0 {
				break
			}
			end += w
		}
		return end
	}
	from := i // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
	if s[i] == ' ' && i+1 < len(s) {
		from = i + 1
	}
	if c, _ := at(s, from); isSymbol(c) {
		end := from
		for end < len(s) {
			c, w := at(s, end)
			if !isSymbol(c) {
				break
			}
			end += w
		}
		for end < len(s) && (s[end] == '\r' || s[end] == '\n' || s[end] == '/') {
			end++
		}
		return end
	}
	return spaces(s, i) // all that is left is white space
}

// wordLower matches [U]*[L]+ at s[i] (U and L are upper and lower above;
// they overlap in Lm, Lo and M) and returns its end, or 0.
func wordLower(s string, i int) int {
	uEnd := run(s, i, upper)
	if uEnd < len(s) {
		if c, _ := at(s, uEnd); c&lower != 0 { // [U]* keeps the whole run, [L]+ goes on from there
			return run(s, uEnd, lower)
		}
	}
	// [U]* gives characters back until one is also L; [L]+ takes just that
	// one, as the character after it is not L.
	for j := uEnd; j > i; {
		_, w := utf8.DecodeLastRuneInString(s[:j])
		j -= w
		if c, _ := at(s, j); c&lower != 0 {
			return j + w
		}
	}
	return 0
}

// wordUpper matches [U]+[L]* at s[i] and returns its end, or 0.
func wordUpper(s string, i int) int {
	uEnd := run(s, i, upper)
	if uEnd == i {
		return 0
	}
	return run(s, uEnd, lower)
}

// contraction is the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i:], or 0.
// Only ASCII letters fold to these, so comparing bytes is exact.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return 0
	}
	var second byte
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		second = 'e'
	case 'l':
		second = 'l'
	default:
		return 0
	}
	if i+2 < len(s) && s[i+2]|0x20 == second {
		return 3
	}
	return 0
}

// spaces matches the white-space alternatives at a run of white space:
// \s*[\r\n]+ ends after the run's last \r or \n; else \s+(?!\S) takes the
// run but its last character when more text follows (that one goes with the
// next piece); else \s+ takes the one character.
func spaces(s string, i int) int {
	end := run(s, i, space)
	for j := end - 1; j >= i; j-- {
		if s[j] == '\r' || s[j] == '\n' {
			return j + 1
		}
	}
	if end == len(s) {
		return end
	}
	_, w := utf8.DecodeLastRuneInString(s[:end])
	if end-w > i {
		return end - w
	}
	return end
}

// run returns the end of the longest run of characters from s[i] that are
// in class want.
func run(s string, i int, want class) int {
	for i < len(s) {
		if s[i] < utf8.RuneSelf {
			if ascii[s[i]]&want == 0 {
				break
			}
			i++
			continue
		}
		c, w := at(s, i)
		if c&want == 0 {
			break
		}
		i += w
	}
	return i
}
