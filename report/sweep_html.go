package report

import (
	"fmt"
	"strconv"
	"strings"

	"tpsrace/format"
)

// htmlSweep is one bench document's concurrency sweep on the report page:
// its verdict and the trade-off chart, per-user tok/s against aggregate
// tok/s, one curve per provider, each point labelled with its C.
type htmlSweep struct {
	Title, Verdict string
	Chart          sweepChart
}

// sweepChart is the trade-off laid out in SVG pixels (G): aggregate tok/s
// across, per-user tok/s up, both from 0 to a round maximum.
type sweepChart struct {
	G              geometry
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

var sweepGeometry = geometry{W: 640, H: 360, Left: 56, Right: 24, Top: 36, Bottom: 40}

// XTitleX and XTitleY place the x axis' title.
func (g geometry) XTitleX() int { return g.Left + (g.W-g.Left-g.Right)/2 }
func (g geometry) XTitleY() int { return g.H - 8 }

// sweepsOf are the sweeps among records, in their order.
func sweepsOf(records []Record) []htmlSweep {
	var out []htmlSweep
	for _, rec := range records {
		if rec.Sweep == nil {
			continue
		}
		b := Bench{&rec.Bench}
		title := "Concurrency sweep, " + rec.StartedAt.UTC().Format("2006-01-02 15:04") + " UTC"
		if rec.Probe != "" {
			title += ", probe " + rec.Probe
		}
		out = append(out, htmlSweep{Title: title, Verdict: rec.SweepVerdict, Chart: newSweepChart(b.sweepRows())})
	}
	return out
}

// newSweepChart draws each provider's levels in the order raced.
func newSweepChart(rows []sweepRow) sweepChart {
	g := sweepGeometry
	c := sweepChart{G: g, XTitle: "aggregate tok/s (all users)", YTitle: "per-user tok/s"}
	var xTop, yTop float64
	for _, r := range rows {
		if r.p.AggregateTPS != nil && r.p.PerUserTPS != nil {
			xTop, yTop = max(xTop, *r.p.AggregateTPS), max(yTop, *r.p.PerUserTPS)
		}
	}
	if xTop == 0 || yTop == 0 {
		return c
	}
	xTop, yTop = roundUp(xTop), roundUp(yTop)
	plotW, plotH := float64(g.W-g.Left-g.Right), float64(g.H-g.Top-g.Bottom)
	x := func(v float64) float64 { return tenth(float64(g.Left) + plotW*v/xTop) }
	y := func(v float64) float64 { return tenth(float64(g.Top) + plotH*(1-v/yTop)) }
	for _, frac := range []float64{0, 0.5, 1} {
		c.YGrid = append(c.YGrid, gridLine{Y: y(yTop * frac), LabelY: y(yTop*frac) + 4, Label: trimFloat(yTop * frac)})
		c.XGrid = append(c.XGrid, gridLine{Y: x(xTop * frac), LabelY: float64(g.H - g.Bottom + 14), Label: trimFloat(xTop * frac)})
	}
	c.Axis = y(0)
	index := map[string]int{}
	for _, r := range rows {
		i, ok := index[r.p.Name]
		if !ok {
			i = len(c.Series)
			index[r.p.Name] = i
			c.Series = append(c.Series, sweepSeries{Color: seriesColors[i%len(seriesColors)], Name: r.p.Name})
		}
		if r.p.AggregateTPS == nil || r.p.PerUserTPS == nil {
			continue
		}
		a, u := *r.p.AggregateTPS, *r.p.PerUserTPS
		d := sweepDot{X: x(a), Y: y(u), LabelX: x(a) + 6, LabelY: y(u) - 6, Label: "C=" + strconv.Itoa(r.concurrency), Knee: r.knee, Bent: r.p.ClientBent,
			Title: fmt.Sprintf("%s at C=%d: %s tok/s per user, %s tok/s aggregate", r.p.Name, r.concurrency, format.TPS(u), format.TPS(a))}
		if r.knee {
			d.Title += " (knee)"
		}
		if d.Bent {
			d.Title += " (⚑ client_saturated: tpsrace may have bent it)"
		}
		c.Series[i].Dots = append(c.Series[i].Dots, d)
	}
	for i, s := range c.Series {
		if len(s.Dots) > 1 {
			pts := make([]string, len(s.Dots))
			for k, d := range s.Dots {
				pts[k] = fmt.Sprintf("%.1f,%.1f", d.X, d.Y)
			}
			c.Series[i].Points = strings.Join(pts, " ")
		}
	}
	return c
}

// Empty says no level had both figures.
func (c sweepChart) Empty() bool { return len(c.YGrid) == 0 }
