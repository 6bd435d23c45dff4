package sweepview

import (
	"math"
	"strconv"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/format"
	"tpsrace/metrics"
)

// Markers of a point: a level, the provider's knee, and a level the
// client may have bent (hollow, as the HTML report draws it).
const (
	markLevel = '●'
	markKnee  = '◆'
	markBent  = '○'
)

// xy is a point of a chart in its own units, with its level.
type xy struct {
	x, y  float64
	point metrics.SweepPoint
}

// series is a chart's points of one provider (curve i), in the order raced.
type series struct {
	curve  int
	points []xy
}

// tradeOff is per-user tok/s (up) against aggregate tok/s (right): the
// trade-off itself, a curve per provider climbing right as users are
// added and falling as each user slows.
func tradeOff(s metrics.Sweep) []series {
	return seriesOf(s, func(p metrics.SweepPoint) (float64, float64, bool) {
		u, ok := p.PerUser()
		return p.Aggregate.Median, u, ok && p.Aggregate.Runs > 0
	})
}

// queueing is TTFT p50 in ms (up) against log2 of the level (right):
// the wait for a first token as users queue.
func queueing(s metrics.Sweep) []series {
	return seriesOf(s, func(p metrics.SweepPoint) (float64, float64, bool) {
		t := p.Summary.TTFT
		return math.Log2(float64(p.Concurrency)), float64(t.P50.Microseconds()) / 1000, t.Has()
	})
}

func seriesOf(s metrics.Sweep, at func(metrics.SweepPoint) (x, y float64, ok bool)) []series {
	var out []series
	for i, c := range s.Curves {
		sr := series{curve: i}
		for _, p := range c.Points {
			if x, y, ok := at(p); ok {
				sr.points = append(sr.points, xy{x, y, p})
			}
		}
		out = append(out, sr)
	}
	return out
}

// chart draws series on a w × h ntcharts line chart: braille lines between
// a provider's levels in its colour, each level a marker labelled C=n, the
// knee's marker ◆ and a bent level's ○. xLabel formats the x axis.
func chart(s metrics.Sweep, all []series, st Styles, w, h int, xLabel func(float64) string) string {
	maxX, maxY, minX := 1.0, 1.0, math.Inf(1)
	for _, sr := range all {
		for _, p := range sr.points {
			maxX, maxY, minX = max(maxX, p.x), max(maxY, p.y), min(minX, p.x)
		}
	}
	if math.IsInf(minX, 1) {
		minX = 0
	}
	minX = min(minX, 0)
	maxX, maxY = maxX*1.08, maxY*1.12 // room for the last point's label
	lc := linechart.New(w, h, minX, maxX, 0, maxY,
		linechart.WithXYSteps(max(w/16, 1), max(h/5, 1)),
		linechart.WithStyles(st.Axis, st.Label, st.Label),
		linechart.WithXLabelFormatter(func(_ int, v float64) string { return xLabel(v) }),
		linechart.WithYLabelFormatter(func(_ int, v float64) string { return format.Short(v) }))
	lc.DrawXYAxisAndLabel()
	for _, sr := range all {
		for i := 1; i < len(sr.points); i++ {
			a, b := sr.points[i-1], sr.points[i]
			lc.DrawBrailleLineWithStyle(canvas.Float64Point{X: a.x, Y: a.y}, canvas.Float64Point{X: b.x, Y: b.y}, st.provider(sr.curve))
		}
	}
	marks := map[canvas.Point]bool{} // cells markers and labels hold
	var placed []placedPoint
	for _, sr := range all {
		knee := s.Curves[sr.curve].Knee
		for _, p := range sr.points {
			mark := markLevel
			switch {
			case p.point.ClientBent:
				mark = markBent
			case knee.Found && knee.At == p.point.Concurrency:
				mark = markKnee
			}
			at := cellOf(&lc, p)
			lc.Canvas.SetCell(at, canvas.NewCellWithStyle(mark, st.provider(sr.curve)))
			marks[at] = true
			placed = append(placed, placedPoint{at, p.point.Concurrency, st.provider(sr.curve)})
		}
	}
	for _, p := range placed {
		label(&lc, p, marks)
	}
	return lc.View()
}

// placedPoint is a marker drawn at a cell, to be labelled.
type placedPoint struct {
	at          canvas.Point
	concurrency int
	style       lipgloss.Style
}

// cellOf is the canvas cell of a chart point, as ntcharts places its runes
// (off the axes).
func cellOf(lc *linechart.Model, p xy) canvas.Point {
	at := canvas.CanvasPointFromFloat64Point(lc.Origin(), lc.ScaleFloat64Point(canvas.Float64Point{X: p.x, Y: p.y}))
	return canvas.Point{X: at.X + 1, Y: at.Y - 1}
}

// label writes C=n right of a marker, else left of it, where it covers no
// other marker or label and is not cut by the edge; else the marker stays
// unlabelled (the table names every level).
func label(lc *linechart.Model, p placedPoint, taken map[canvas.Point]bool) {
	text := "C=" + strconv.Itoa(p.concurrency)
	for _, x := range []int{p.at.X + 1, p.at.X - len(text)} {
		free := x > lc.Origin().X && x+len(text) <= lc.Canvas.Width()
		for i := range len(text) {
			free = free && !taken[canvas.Point{X: x + i, Y: p.at.Y}]
		}
		if free {
			lc.Canvas.SetStringWithStyle(canvas.Point{X: x, Y: p.at.Y}, text, p.style)
			for i := range len(text) {
				taken[canvas.Point{X: x + i, Y: p.at.Y}] = true
			}
			return
		}
	}
}
