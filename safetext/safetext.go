// Package safetext keeps text that a provider (or a proxy in front of it)
// controls from acting on the terminal it is printed to: error messages,
// model names, answers. Escape sequences (colours, cursor moves, an OSC that
// retitles the window or writes the clipboard) are removed, and every other
// control character, C0 and C1, is dropped, as are the bidirectional
// overrides that make text read differently from what it is.
//
//	fmt.Fprintln(os.Stderr, safetext.Line(err.Error()))
//
// JSON output is never passed through it: JSON stays exact (it escapes
// these runes as \uXXXX, which keeps their value).
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
	if strings.IndexFunc(s, Unsafe) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && newlines:
			b.WriteRune(r)
		case r == '\n' || r == '\t' || r == '\r' && !newlines:
			b.WriteByte(' ')
		case Unsafe(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Unsafe reports a rune a terminal may act on rather than show: a control
// character (C0, DEL, C1) or a bidirectional override.
func Unsafe(r rune) bool {
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

// Markdown is s as one line of Markdown that renders as exactly its
// characters, never as markup, wherever the line is placed: a table cell, a
// list item, a heading. The text is made plain first (Line: no control
// characters, newlines read as spaces) and trimmed (leading spaces would
// open a code block; HTML drops them anyway), then
//   - <, > and & become entities, so no HTML tag, autolink or entity is read
//     (many renderers, MkDocs, Hugo and most wikis, pass raw HTML through);
//   - the punctuation Markdown acts on inside a line gets a backslash
//     (backslash, backtick, asterisk, _ ~ [ ] and |, which would split a
//     table cell), so there is no code span, emphasis, strikethrough, link
//     or image;
//   - the : of :// , the . of www. and @ get one too, so GFM's bare-URL and
//     e-mail autolinks do not turn a provider's text into a link;
//   - a leading #, +, -, = or the . of "1." / ) of "1)" is escaped, so the
//     text opens no heading, list or setext underline (> is already an entity).
//
// An emoji shortcode (:smile: on GitHub) is left as it is: it is not a link
// or a tag, and escaping every colon would make the raw text hard to read.
//
// Backslash escapes and entities are CommonMark, read alike by GitHub,
// GitLab, markdown-it, Goldmark and Python-Markdown.
func Markdown(s string) string {
	s = strings.TrimSpace(Line(s))
	marker := leadingMarker(s)
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
			continue
		case '>': // an entity opens no block quote: blocks are read before entities
			b.WriteString("&gt;")
			continue
		case '&':
			b.WriteString("&amp;")
			continue
		case '\\', '`', '*', '_', '~', '[', ']', '|', '@':
			b.WriteByte('\\')
		case ':':
			if strings.HasPrefix(s[i:], "://") {
				b.WriteByte('\\')
			}
		case '.':
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteByte('\\')
			}
		}
		if i == marker {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// leadingMarker is the index of the character that would open a Markdown
// block at the start of s (# heading, + - list, = setext underline, the . or
// ) of "1." or "1)"), or -1.
func leadingMarker(s string) int {
	if s == "" {
		return -1
	}
	if strings.ContainsRune("#+-=", rune(s[0])) {
		return 0
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') {
		return digits
	}
	return -1
}
