package draw

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
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

// BenchmarkBar is a race track's bar (ntcharts' left block elements) as a
// lane and the leaderboard draw it every frame.
func BenchmarkBar(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		Bar(0.637, 60)
	}
}
