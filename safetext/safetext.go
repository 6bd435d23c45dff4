// Package safetext keeps text that a provider (or a proxy in front of it)
// controls from acting on the terminal it is printed to: error messages,
// model names, answers. Escape sequences (colours, cursor moves, an OSC that
// retitles the window or writes the clipboard) are removed, and every other
// control character, C0 and C1, is dropped, as are the bidirectional
// overrides that make text read differently from what it is.
//
//	fmt.Fprintln(os.Stderr, safetext.Line(err.Error()))
//
// JSON output is never passed through it: JSON stays exact.
package safetext

import (
	"io"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Line is s as one line of plain text: newlines and tabs read as spaces.
func Line(s string) string { return clean(s, false) }

// Text is s as plain text that keeps its newlines; tabs read as spaces.
func Text(s string) string { return clean(s, true) }

func clean(s string, newlines bool) string {
	s = ansi.Strip(strings.ToValidUTF8(s, "\uFFFD"))
	if strings.IndexFunc(s, unsafe) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && newlines:
			b.WriteRune(r)
		case r == '\n' || r == '\t' || r == '\r' && !newlines:
			b.WriteByte(' ')
		case unsafe(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafe: a control character (C0, DEL, C1) or a bidirectional override.
func unsafe(r rune) bool {
	return unicode.IsControl(r) || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// Writer writes everything through Text. Because every escape character is
// dropped, a sequence split across two writes cannot survive either.
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
