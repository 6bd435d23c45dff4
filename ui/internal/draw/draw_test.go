package draw

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// A Paint styles a line exactly as lipgloss renders it.
func TestPaintMatchesRender(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.TrueColor)
	for _, s := range []lipgloss.Style{
		r.NewStyle(),
		r.NewStyle().Foreground(lipgloss.Color("#ff0000")).Bold(true),
		r.NewStyle().Foreground(lipgloss.Color("#0000ff")).Italic(true).Reverse(true),
	} {
		for _, text := range []string{"1,820 tok/s", "▁▂▃█ ┈┈"} {
			if got, want := NewPaint(s).Render(text), s.Render(text); got != want {
				t.Errorf("Paint %q, Render %q", got, want)
			}
			// A variant made from the Paint's style is that style's.
			if got, want := NewPaint(NewPaint(s).Style()).Render(text), s.Render(text); got != want {
				t.Errorf("Paint from Style %q, Render %q", got, want)
			}
		}
	}
}

func TestBar(t *testing.T) {
	for _, c := range []struct {
		fraction float64
		width    int
		want     string
	}{{0, 4, ""}, {1, 4, "████"}, {0.5, 3, "█▌"}, {0.99, 2, "██"}, {0.01, 4, ""}, {2, 2, "██"}, {-1, 2, ""}} {
		if got := Bar(c.fraction, c.width); got != c.want {
			t.Errorf("Bar(%v, %d) = %q, want %q", c.fraction, c.width, got, c.want)
		}
	}
}

// Width measures as ansi.StringWidth does, on the lines a frame draws and
// on those it hands to ansi.StringWidth.
func TestWidth(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.TrueColor)
	bold := NewPaint(r.NewStyle().Foreground(lipgloss.Color("#ff8800")).Bold(true))
	for _, s := range []string{
		"", "plain ascii", bold.Render("1,820 tok/s") + " · ≈4m20s", "╭─ 1 sim-wafer ─── ✓ 1st ─╮", "▁▂▃█ ┈┈ ⣿⡇ ●■▲◆",
		"µs ×1.5 … “quoted” ⏸ PAUSED", "日本語 wide", "e\u0301 combining", "emoji ✅ 👍🏽", "▶\ufe0f selector",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "tab\there", "cut \x1b[1", "\x1b[38;2;1;2;3mrgb\x1b[0m",
	} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
	// Every rune counted alone is one cell alone, and keeps its cell next to any other.
	for r := rune(0); r < rune(len(oneCellTable)); r++ {
		if oneCell(r) {
			if s := "a" + string(r) + string(r) + "b"; ansi.StringWidth(s) != 4 {
				t.Errorf("%U: ansi.StringWidth(%q) = %d, Width says 4", r, s, ansi.StringWidth(s))
			}
		}
	}
}

// BenchmarkBar is a race track's bar (ntcharts' left block elements) as a
// lane and the leaderboard draw it every frame.
func BenchmarkBar(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		Bar(0.637, 60)
	}
}
