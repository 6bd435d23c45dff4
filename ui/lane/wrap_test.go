package lane

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWrapperMatchesWrappingAtOnce(t *testing.T) {
	text := "The quick brown fox jumps over the lazy dog.\n\nA cache is a small, fast memory close to the core; " +
		"it keeps recently used lines so the next access is cheap. Supercalifragilisticexpialidocious words get cut."
	whole := newWrapper(20)
	whole.Append(text)
	pieces := newWrapper(20)
	for _, chunk := range strings.SplitAfter(text, " ") {
		for _, half := range []string{chunk[:len(chunk)/2], chunk[len(chunk)/2:]} {
			pieces.Append(half)
		}
	}
	got, want := strings.Join(pieces.Lines(), "\n"), strings.Join(whole.Lines(), "\n")
	if got != want {
		t.Fatalf("appending in pieces:\n%s\nat once:\n%s", got, want)
	}
	for _, l := range whole.Lines() {
		if ansi.StringWidth(l) > 20 {
			t.Errorf("line %q is wider than 20", l)
		}
	}
	if strings.Count(want, "\n\n\n") > 0 {
		t.Errorf("blank lines should fold to one:\n%s", want)
	}
}

func TestWrapperTailFollowsTheOpenLine(t *testing.T) {
	w := newWrapper(10)
	w.Append("one two three four fi")
	got := w.Tail(2)
	want := []string{"three four", "fi"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Tail(2) = %q, want %q", got, want)
	}
	if got := w.Tail(10); len(got) != 3 {
		t.Fatalf("Tail(10) = %q, want all 3 lines", got)
	}
}

func TestWrapperDropsControlCharacters(t *testing.T) {
	w := newWrapper(40)
	w.Append("red \x1b[31mtext\x1b[0m\tbell\a\r")
	if got := strings.Join(w.Lines(), "\n"); got != "red [31mtext[0m bell" {
		t.Fatalf("got %q", got)
	}
}

func TestWrapperWideRunes(t *testing.T) {
	for _, width := range []int{1, 5} {
		w := newWrapper(width)
		w.Append("日本語のテキスト")
		if got := strings.Join(w.Lines(), ""); got != "日本語のテキスト" {
			t.Errorf("width %d: lost text: %q", width, got)
		}
		for _, l := range w.Lines() {
			if ansi.StringWidth(l) > max(width, 2) {
				t.Errorf("width %d: line %q is too wide", width, l)
			}
		}
	}
}

// A word is measured by its cells, not its bytes, once it has a rune that
// is not ASCII; C1 controls are dropped like C0 ones, and a byte that is
// not UTF-8 reads as U+FFFD.
func TestWrapperMeasuresRunesNotBytes(t *testing.T) {
	w := newWrapper(8)
	w.Append("ab\u0085cd ééééé ééé x\xffy")
	want := []string{"abcd", "ééééé", "ééé x\ufffdy"}
	if got := w.Lines(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}
