package safetext

import (
	"bytes"
	"testing"
)

func TestHostileTextStaysText(t *testing.T) {
	for _, tc := range []struct{ in, line, text string }{
		{"bad key \x1b]0;PWNED\x07 \x1b[2J", "bad key  ", "bad key  "},
		{"clip\x1b]52;c;SGVsbG8=\x07board", "clipboard", "clipboard"},
		{"c1 \u009b31mred\u009d0;t\u009c", "c1 31mred0;t", "c1 31mred0;t"},
		{"a\x07b\x08c\td\ne\r\n", "abc d e  ", "abc d\ne\n"},
		{"bidi \u202egnp.exe\u202c", "bidi gnp.exe", "bidi gnp.exe"},
		{"raw \x9b byte", "raw \uFFFD byte", "raw \uFFFD byte"},
		{"plain é 日本", "plain é 日本", "plain é 日本"},
	} {
		if got := Line(tc.in); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}

func TestWriterDropsASequenceSplitAcrossWrites(t *testing.T) {
	var b bytes.Buffer
	w := Writer{&b}
	w.Write([]byte("x\x1b"))
	w.Write([]byte("]0;PWNED\x07y\n"))
	if got := b.String(); got != "x]0;PWNEDy\n" {
		t.Errorf("got %q", got)
	}
}
