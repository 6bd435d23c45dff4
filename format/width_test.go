package format

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Width measures as ansi.StringWidth does, on the lines a frame draws and
// on those it hands to ansi.StringWidth.
func TestWidth(t *testing.T) {
	for _, s := range []string{
		"", "plain ascii", "\x1b[1;38;2;255;136;0m1,820 tok/s\x1b[0m" + " · ≈4m20s", "╭─ 1 sim-wafer ─── ✓ 1st ─╮", "▁▂▃█ ┈┈ ⣿⡇ ●■▲◆",
		"µs ×1.5 … “quoted” ⏸ PAUSED", "日本語 wide", "e\u0301 combining", "emoji ✅ 👍🏽", "▶\ufe0f selector",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "tab\there", "cut \x1b[1", "\x1b[38;2;1;2;3mrgb\x1b[0m",
	} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
	// Every rune counted alone is one cell alone, and keeps its cell next to any other.
	for i, one := range oneCellTable() {
		r := rune(i)
		if one {
			if s := "a" + string(r) + string(r) + "b"; ansi.StringWidth(s) != 4 {
				t.Errorf("%U: ansi.StringWidth(%q) = %d, Width says 4", r, s, ansi.StringWidth(s))
			}
		}
	}
}

// Truncate cuts as ansi.Truncate does, whether the text fits or not.
func TestTruncate(t *testing.T) {
	for _, s := range []string{"", "fits", "\x1b[1mbold text\x1b[0m that runs on", "日本語 wide text", "e\u0301 combining marks"} {
		for width := range 20 {
			if got, want := Truncate(s, width, "…"), ansi.Truncate(s, width, "…"); got != want {
				t.Errorf("Truncate(%q, %d) = %q, ansi.Truncate %q", s, width, got, want)
			}
		}
	}
}

// A name cut to fit loses its end, but a merged race's lane keeps its
// probe, which tells it from the same provider's lane on another host.
func TestName(t *testing.T) {
	for _, tc := range []struct {
		name  string
		width int
		want  string
	}{
		{"groq-llama@fra", 20, "groq-llama@fra"},
		{"groq-llama@fra", 11, "groq-l…@fra"},
		{"groq-llama@iad", 11, "groq-l…@iad"},
		{"deep-thinker", 11, "deep-think…"},
		{"groq@frankfurt-1", 11, "groq@frank…"}, // no room for the provider beside the probe: the end cut
	} {
		if got := Name(tc.name, tc.width); got != tc.want || Width(got) > tc.width {
			t.Errorf("Name(%q, %d) = %q, want %q", tc.name, tc.width, got, tc.want)
		}
	}
}
