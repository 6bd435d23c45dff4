package draw

import (
	"strings"
	"testing"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/sparkline"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// Canvas draws the text ntcharts' View draws, in the cells' colours.
func TestCanvasMatchesNtcharts(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.TrueColor)
	blue := r.NewStyle().Foreground(lipgloss.Color("#0000ff"))
	red := r.NewStyle().Foreground(lipgloss.Color("#ff0000"))
	s := sparkline.New(12, 3, sparkline.WithStyle(blue))
	s.PushAll([]float64{0, 1, 2, 3, 5, 8, 5, 3, 2, 1, 0, 4})
	s.DrawColumnsOnly()
	s.Canvas.SetCell(canvas.Point{X: 0, Y: 2}, canvas.NewCellWithStyle('┈', red))

	got, want := Canvas(&s.Canvas), s.Canvas.View()
	if ansi.Strip(got) != ansi.Strip(want) {
		t.Fatalf("text differs:\n%s\nntcharts:\n%s", ansi.Strip(got), ansi.Strip(want))
	}
	for _, colour := range []string{"38;2;0;0;255", "38;2;255;0;0"} {
		if strings.Contains(want, colour) != strings.Contains(got, colour) {
			t.Errorf("colour %s: ntcharts %v, Canvas %v", colour, strings.Contains(want, colour), strings.Contains(got, colour))
		}
	}
	if len(got) >= len(want) {
		t.Errorf("runs should take fewer escapes: %d bytes vs ntcharts' %d", len(got), len(want))
	}
}
