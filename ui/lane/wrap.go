package lane

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"tpsrace/format"
)

// wrapper word-wraps a text that only grows, as it grows: appending wraps
// the new text only (greedy wrapping never moves a finished line), so a
// long answer costs nothing per frame once it has been laid out. It is a
// plain value (byte slices, not strings.Builder) so the lane holding it
// can be copied, as Bubble Tea models are.
type wrapper struct {
	width int
	lines []string // finished lines
	line  []byte   // the line being filled
	lineW int
	word  []byte // the word being read
	wide  bool   // the word has a rune that is not ASCII: its width is measured
	blank bool   // the last finished line is blank (blank runs fold to one)
}

func newWrapper(width int) wrapper { return wrapper{width: max(width, 1)} }

// Append wraps s onto the text. Control characters (escape sequences from a
// hostile or confused model included) are dropped; tabs read as spaces.
// ASCII, most of most answers, is read a byte at a time and counted one
// cell a byte: an answer streams in at thousands of words a second.
func (w *wrapper) Append(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				w.endWord()
				w.endLine()
			case c == '\t' || c == ' ':
				w.endWord()
			case c > ' ' && c < 0x7f:
				w.word = append(w.word, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsControl(r) {
			w.word = utf8.AppendRune(w.word, r) // invalid UTF-8 reads as U+FFFD
			w.wide = true
		}
		i += size
	}
}

// endWord places the word read so far on the current line or a new one,
// cutting a word wider than the whole line.
func (w *wrapper) endWord() {
	if len(w.word) == 0 {
		return
	}
	ww := len(w.word) // cells: one a byte, for ASCII
	if w.wide {
		ww = format.Width(string(w.word))
	}
	if w.lineW > 0 && w.lineW+1+ww > w.width {
		w.endLine()
	}
	if ww > w.width {
		w.cutWord()
		return
	}
	if w.lineW > 0 {
		w.line = append(w.line, ' ')
		w.lineW++
	}
	w.line = append(w.line, w.word...)
	w.lineW += ww
	w.word, w.wide = w.word[:0], false
}

// cutWord places a word wider than the whole line, which starts a line of
// its own: cut into lines of the full width, the rest left on the last.
func (w *wrapper) cutWord() {
	word := string(w.word)
	w.word, w.wide = w.word[:0], false
	ww := format.Width(word)
	for ww > w.width {
		head := format.Truncate(word, w.width, "")
		if head == "" { // a rune wider than the line: it goes on one anyway
			_, size := utf8.DecodeRuneInString(word)
			head = word[:size]
		}
		w.line = append(w.line, head...)
		w.lineW = format.Width(head)
		w.endLine()
		word = word[len(head):]
		ww = format.Width(word)
	}
	w.line = append(w.line, word...)
	w.lineW += ww
}

func (w *wrapper) endLine() {
	line := string(w.line)
	w.line = w.line[:0]
	w.lineW = 0
	if line == "" && (w.blank || len(w.lines) == 0) {
		return
	}
	w.blank = line == ""
	w.lines = append(w.lines, line)
}

// Tail is the last n lines as shown now: the finished ones and the line
// being filled, with the word being read placed where it would go.
func (w *wrapper) Tail(n int) []string {
	if n <= 0 {
		return nil
	}
	open := w.openLines()
	keep := max(n-len(open), 0)
	out := append([]string{}, w.lines[max(len(w.lines)-keep, 0):]...)
	out = append(out, open...)
	return out[max(len(out)-n, 0):]
}

// Lines is every line as shown now.
func (w *wrapper) Lines() []string { return append(slices.Clip(w.lines), w.openLines()...) }

// openLines lays out the unfinished line and word without finishing them.
func (w *wrapper) openLines() []string {
	probe := wrapper{width: w.width, lineW: w.lineW, line: slices.Clone(w.line), word: slices.Clone(w.word), wide: w.wide}
	probe.endWord()
	probe.endLine()
	return probe.lines
}
