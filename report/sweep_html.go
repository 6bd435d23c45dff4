package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// htmlSweep is one bench document's concurrency sweep on the report page:
// its verdict and two charts, the trade-off (per-user against aggregate
// tok/s) and the queueing (TTFT against C), one curve per provider, each
// point labelled with its C.
type htmlSweep struct {
	Title, Verdict string
	Charts         []sweepChart
}

// sweepChart is one chart laid out in SVG pixels (G): X across, Y up, both
// from 0 (X from the lowest level on a log scale) to a round maximum.
type sweepChart struct {
	G              geometry
	Title          string
	XGrid, YGrid   []gridLine // XGrid's Y is the line's x
	Axis           float64
	XTitle, YTitle string
	Series         []sweepSeries
}

type sweepSeries struct {
	Color, Name string
	Points      string // the polyline's points; "" with fewer than two
	Dots        []sweepDot
}

// sweepDot is one level: its C beside it; Knee draws it larger; Bent
// hollow (the client may have bent it).
type sweepDot struct {
	X, Y, LabelX, LabelY float64
	Label, Title         string
	Knee, Bent           bool
}

// sweepAxis is what an axis of a sweep chart reads of a row: its title,
// its value (ok false where undefined), and whether it is the levels
// themselves (a log2 scale, labelled at each level).
type sweepAxis struct {
	title  string
	value  func(r sweepRow) (float64, bool)
	levels bool
}

var (
	aggregateAxis = sweepAxis{"aggregate tok/s (all users)", func(r sweepRow) (float64, bool) { return opt(r.p.AggregateTPS) }, false}
	perUserAxis   = sweepAxis{"per-user tok/s", func(r sweepRow) (float64, bool) { return opt(r.p.PerUserTPS) }, false}
	levelAxis     = sweepAxis{"users (C, log scale)", func(r sweepRow) (float64, bool) { return float64(r.concurrency), true }, true}
	ttftAxis      = sweepAxis{"TTFT p50 (ms)", func(r sweepRow) (float64, bool) { return opt(r.p.TTFTms.P50) }, false}
)

func opt(v *float64) (float64, bool) {
	if v == nil {
		return 0, false
	}
	return *v, true
}

var sweepGeometry = geometry{W: 640, H: 360, Left: 56, Right: 110, Top: 36, Bottom: 40} // the legend in the right margin

// XTitleX and XTitleY place the x axis' title.
func (g geometry) XTitleX() int { return g.Left + (g.W-g.Left-g.Right)/2 }
func (g geometry) XTitleY() int { return g.H - 8 }

// sweepsOf are the sweeps among records: each probe's latest (a watch
// --history sweeps on its schedule, and a page of every one would bury
// them), in the order of the records, saying of how many it is the latest.
func sweepsOf(records []Record) []htmlSweep {
	latest, count := map[string]int{}, map[string]int{}
	for i, rec := range records {
		if rec.Sweep == nil {
			continue
		}
		count[rec.Probe]++
		if j, ok := latest[rec.Probe]; !ok || rec.StartedAt.After(records[j].StartedAt) {
			latest[rec.Probe] = i
		}
	}
	var out []htmlSweep
	for i, rec := range records {
		if j, ok := latest[rec.Probe]; !ok || j != i {
			continue
		}
		rows := (&Bench{&rec.Bench}).sweepRows()
		title := "Concurrency sweep, " + rec.StartedAt.UTC().Format("2006-01-02 15:04") + " UTC"
		if rec.Probe != "" {
			title += ", probe " + rec.Probe
		}
		if n := count[rec.Probe]; n > 1 {
			title += " (the latest of " + strconv.Itoa(n) + " sweeps)"
		}
		out = append(out, htmlSweep{Title: title, Verdict: rec.SweepVerdict, Charts: []sweepChart{
			newSweepChart("per-user against aggregate tok/s", rows, aggregateAxis, perUserAxis),
			newSweepChart("TTFT as users are added (queueing)", rows, levelAxis, ttftAxis),
		}})
	}
	return out
}

// newSweepChart draws each provider's levels, in the order raced, at
// (x, y) of each row that defines both.
func newSweepChart(title string, rows []sweepRow, xAxis, yAxis sweepAxis) sweepChart {
	g := sweepGeometry
	c := sweepChart{G: g, Title: title, XTitle: xAxis.title, YTitle: yAxis.title}
	var xTop, yTop float64
	xLow := math.Inf(1)
	for _, r := range rows {
		xv, okX := xAxis.value(r)
		yv, okY := yAxis.value(r)
		if okX && okY {
			xTop, yTop, xLow = max(xTop, xv), max(yTop, yv), min(xLow, xv)
		}
	}
	if xTop == 0 || yTop == 0 {
		return c
	}
	yTop = roundUp(yTop)
	plotW, plotH := float64(g.W-g.Left-g.Right), float64(g.H-g.Top-g.Bottom)
	x, xTicks := linearX(g, plotW, roundUp(xTop))
	if xAxis.levels {
		x, xTicks = levelX(g, plotW, xLow, xTop, rows)
	}
	y := func(v float64) float64 { return tenth(float64(g.Top) + plotH*(1-v/yTop)) }
	for _, frac := range []float64{0, 0.5, 1} {
		c.YGrid = append(c.YGrid, gridLine{Y: y(yTop * frac), LabelY: y(yTop*frac) + 4, Label: trimFloat(yTop * frac)})
	}
	for _, v := range xTicks {
		c.XGrid = append(c.XGrid, gridLine{Y: x(v), LabelY: float64(g.H - g.Bottom + 14), Label: trimFloat(v)})
	}
	c.Axis = y(0)
	c.Series = sweepSeriesOf(rows, func(r sweepRow) (float64, float64, bool) {
		xv, okX := xAxis.value(r)
		yv, okY := yAxis.value(r)
		return x(xv), y(yv), okX && okY
	})
	return c
}

// linearX places 0 to top across the plot, ticks at 0, half and top.
func linearX(g geometry, plotW, top float64) (func(float64) float64, []float64) {
	return func(v float64) float64 { return tenth(float64(g.Left) + plotW*v/top) }, []float64{0, top / 2, top}
}

// levelX places the levels from low to high on a log2 scale (the middle
// when there is one level), a tick at each level.
func levelX(g geometry, plotW, low, high float64, rows []sweepRow) (func(float64) float64, []float64) {
	var ticks []float64
	for _, r := range rows {
		if c := float64(r.concurrency); !slices.Contains(ticks, c) {
			ticks = append(ticks, c)
		}
	}
	span := math.Log2(high) - math.Log2(low)
	return func(v float64) float64 {
		if span == 0 {
			return tenth(float64(g.Left) + plotW/2)
		}
		return tenth(float64(g.Left) + plotW*(math.Log2(v)-math.Log2(low))/span)
	}, ticks
}

// sweepSeriesOf is a series per provider (in the rows' order), a dot per
// row that at places, joined by a line.
func sweepSeriesOf(rows []sweepRow, at func(sweepRow) (x, y float64, ok bool)) []sweepSeries {
	var series []sweepSeries
	index := map[string]int{}
	for _, r := range rows {
		i, ok := index[r.p.Name]
		if !ok {
			i = len(series)
			index[r.p.Name] = i
			series = append(series, sweepSeries{Color: seriesColors[i%len(seriesColors)], Name: r.p.Name})
		}
		x, y, ok := at(r)
		if !ok {
			continue
		}
		d := sweepDot{X: x, Y: y, LabelX: x + 6, LabelY: y - 6, Label: "C=" + strconv.Itoa(r.concurrency), Knee: r.knee, Bent: r.p.ClientBent,
			Title: fmt.Sprintf("%s at C=%d: %s tok/s per user, %s tok/s aggregate, TTFT %s", r.p.Name, r.concurrency,
				speed(r.p.PerUserTPS), speed(r.p.AggregateTPS), duration(r.p.TTFTms.P50))}
		if r.knee {
			d.Title += " (knee)"
		}
		if d.Bent {
			d.Title += " (⚑ client_saturated: tpsrace may have bent it)"
		}
		series[i].Dots = append(series[i].Dots, d)
	}
	for i, s := range series {
		if len(s.Dots) > 1 {
			pts := make([]string, len(s.Dots))
			for k, d := range s.Dots {
				pts[k] = fmt.Sprintf("%.1f,%.1f", d.X, d.Y)
			}
			series[i].Points = strings.Join(pts, " ")
		}
	}
	return series
}

// Empty says no level had both figures.
func (c sweepChart) Empty() bool { return len(c.YGrid) == 0 }
