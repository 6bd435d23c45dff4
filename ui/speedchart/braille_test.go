package speedchart

import (
	"fmt"
	"testing"
	"time"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/linechart/timeserieslinechart"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"tpsrace/ui/internal/draw"
	"tpsrace/ui/theme"
)

// The chart's plot at 160×48 is about 100×9 cells; a race of 4 providers
// draws 4 lines of up to 120 points (the tokens plot of a 6 s race).
const benchW, benchH, benchProviders, benchPoints = 100, 9, 4, 120

// benchLines are benchProviders rising lines of benchPoints points.
func benchLines() []draw.Line {
	lines := make([]draw.Line, benchProviders)
	for i := range lines {
		lines[i].Provider = i
		for k := range benchPoints {
			x := float64(k) / (benchPoints - 1)
			lines[i].Points = append(lines[i].Points, draw.Point{X: x, Y: min(x*float64(i+1)/2, 1)})
		}
	}
	return lines
}

// benchStyles are the chart's styles in true colour, as a terminal draws them.
func benchStyles(b *testing.B) Styles {
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	return DefaultStyles(theme.New(theme.Dark, true, termenv.TrueColor))
}

// BenchmarkChartGrid is the plot as the chart draws it: ntcharts'
// BrailleGrid and GetLinePoints, rows written as runs (draw.Paint).
func BenchmarkChartGrid(b *testing.B) {
	s, lines := benchStyles(b), benchLines()
	b.ReportAllocs()
	for range b.N {
		g := draw.NewBraille(benchW, benchH)
		for _, l := range lines {
			g.Line(l)
			g.Mark(l.Points[len(l.Points)-1], l.Provider)
		}
		g.Rows(s.provider)
	}
}

// BenchmarkChartCanvas is the same plot drawn as ntcharts' charts draw:
// a BrailleGrid a line, its patterns drawn onto a canvas in the line's
// style (graph.DrawBraillePatterns), the canvas's View.
func BenchmarkChartCanvas(b *testing.B) {
	s, lines := benchStyles(b), benchLines()
	styles := make([]lipgloss.Style, benchProviders)
	for i := range styles {
		styles[i] = s.provider(i).Style()
	}
	b.ReportAllocs()
	for range b.N {
		c := canvas.New(benchW, benchH)
		for _, l := range lines {
			g := graph.NewBrailleGrid(benchW, benchH, 0, 1, 0, 1)
			for k := 1; k < len(l.Points); k++ {
				p0, p1 := l.Points[k-1], l.Points[k]
				for _, d := range graph.GetLinePoints(g.GridPoint(canvas.Float64Point{X: p0.X, Y: p0.Y}), g.GridPoint(canvas.Float64Point{X: p1.X, Y: p1.Y})) {
					g.Set(d)
				}
			}
			graph.DrawBraillePatterns(&c, canvas.Point{}, g.BraillePatterns(), styles[l.Provider])
		}
		_ = c.View()
	}
}

// BenchmarkChartTimeSeries is the same lines in ntcharts' time-series
// line chart (its braille drawing, its axes and labels), pushed and drawn
// every frame as the race grows.
func BenchmarkChartTimeSeries(b *testing.B) {
	s, lines := benchStyles(b), benchLines()
	start := time.Unix(0, 0)
	b.ReportAllocs()
	for range b.N {
		c := timeserieslinechart.New(benchW+6, benchH+2, timeserieslinechart.WithTimeRange(start, start.Add(6*time.Second)), timeserieslinechart.WithYRange(0, 1))
		for _, l := range lines {
			name := fmt.Sprint(l.Provider)
			c.SetDataSetStyle(name, s.provider(l.Provider).Style())
			for _, p := range l.Points {
				c.PushDataSet(name, timeserieslinechart.TimePoint{Time: start.Add(time.Duration(p.X * float64(6*time.Second))), Value: p.Y})
			}
		}
		c.DrawBrailleAll()
		_ = c.View()
	}
}
