package lane

import (
	"math"
	"strings"
	"testing"

	"github.com/NimbleMarkets/ntcharts/sparkline"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

// A lane's sparkline at 160×48 (four lanes) is about 70 columns of 3 rows.
const sparkW, sparkRows = 70, 3

// sparkHeights are sparkW columns of a speed that rises and wobbles, in rows.
func sparkHeights() []float64 {
	h := make([]float64, sparkW)
	for k := range h {
		h[k] = min(float64(k)/20, 1) * (0.7 + 0.2*math.Sin(float64(k)/3)) * sparkRows
	}
	return h
}

// sparkModel is a lane whose styles are in true colour, as a terminal draws them.
func sparkModel(b *testing.B) Model {
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	return Model{styles: DefaultStyles(theme.New(theme.Dark, true, termenv.TrueColor))}
}

// The cells are ntcharts' lower blocks, a column's top cell in eighths,
// with the marker only in the empty cells of its row.
func TestSparkCells(t *testing.T) {
	m := Model{styles: DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii))}
	got := m.sparkCells([]float64{0, 0.5, 1, 1.25, 2}, 1, []string{" top", ""})
	if want := []string{"   ▂█ top", "┈▄███"}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("sparkCells = %q, want %q", got, want)
	}
}

// BenchmarkSparkCells is a lane's sparkline as the lane draws it:
// ntcharts' runes.LowerBlockElementFromFloat64 a cell, rows written as
// runs (draw.Paint).
func BenchmarkSparkCells(b *testing.B) {
	m, heights := sparkModel(b), sparkHeights()
	b.ReportAllocs()
	for range b.N {
		m.sparkCells(heights, 1, make([]string, sparkRows))
	}
}

// BenchmarkSparklineModel is the same columns through ntcharts'
// sparkline.Model: pushed, drawn as columns on its canvas, its View.
func BenchmarkSparklineModel(b *testing.B) {
	m, heights := sparkModel(b), sparkHeights()
	s := sparkline.New(sparkW, sparkRows, sparkline.WithStyle(m.styles.Spark.Style()), sparkline.WithMaxValue(sparkRows), sparkline.WithNoAutoMaxValue())
	b.ReportAllocs()
	for range b.N {
		s.Clear()
		s.PushAll(heights)
		s.Draw()
		_ = s.View()
	}
}

// The sparkline's top says it is the scale every lane shares, the
// fastest lane's peak, never a bare "N tok/s" that reads as the lane's own
// speed; the unit under it says when the scale is logarithmic.
func TestSparklineTopSaysItIsTheScale(t *testing.T) {
	for _, tc := range []struct {
		scale      live.Scale
		top, under string
	}{
		{live.Scale{Top: 1900}, "scale 1.9k", "tok/s"},
		{live.Scale{Top: 1900, Log: true}, "scale 1.9k", "tok/s, log"},
	} {
		p := streamed(true)
		m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		m.SetSize(60, 14)
		m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0), Place: 1, Scale: tc.scale})
		lines := m.sparkLines(58, 2)
		if len(lines) != 2 || !strings.HasSuffix(lines[0], " "+tc.top) || !strings.HasSuffix(lines[1], " "+tc.under) {
			t.Errorf("scale %+v: sparkline %q, want %q on top, %q under it", tc.scale, lines, tc.top, tc.under)
		}
		if v := m.View(); strings.Contains(v, "1.9k tok/s") {
			t.Errorf("the scale reads as a speed:\n%s", v)
		}
	}
}
