package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"tpsrace/safetext"
)

// WriteHTML renders o as one self-contained page: each bench document's
// concurrency sweep (its verdict and charts, sweep_html.go), then per setup,
// the tables of the Markdown report and, per provider, inline SVG charts of
// output speed and TTFT over time (one series per probe). It loads nothing: no script, no
// font, no image, and a Content-Security-Policy that lets the browser
// refuse anything else, so it reads the same offline; print CSS keeps each
// provider's charts on one page. records are those o summarises; sources
// name the files they came from.
//
// Every word from a file or a provider (names, models, probes, prompts,
// file names) reaches the page through html/template's contextual
// escaping, never as markup: the page is built from data, not strings.
func (o Overview) WriteHTML(w io.Writer, records []Record, sources []string) error {
	from, to := timeRange(records)
	page := htmlPage{Sources: strings.Join(sources, ", "), From: from.Format("2006-01-02 15:04"), To: to.Format("2006-01-02 15:04"),
		Notes: o.notes()}
	var total SetupRaces
	for _, sr := range o.Setups {
		total.Records += sr.Records
		total.Races += sr.Races
	}
	page.Count = total.count()
	page.Sweeps = sweepsOf(records)
	series := seriesOf(records)
	for _, sr := range o.Setups {
		s := htmlSetup{Label: sr.label(safetext.Line), Count: sr.count()}
		s.ByProvider.Header = append([]string{"provider", "model"}, sr.header()...)
		for _, g := range inSetup(o.Providers, sr.Setup) {
			s.ByProvider.Rows = append(s.ByProvider.Rows, append([]string{g.Provider, g.Model}, g.cells(sr.Figures)...))
			s.Providers = append(s.Providers, newHTMLProvider(g, series[seriesKey{sr.Setup, g.Provider, g.Model}], from, to))
		}
		s.ByProbeDay.Header = append([]string{"provider", "model", "probe", "day"}, sr.header()...)
		for _, g := range inSetup(o.ByProbeDay, sr.Setup) {
			s.ByProbeDay.Rows = append(s.ByProbeDay.Rows, append([]string{g.Provider, g.Model, orDash(g.Probe), g.Day}, g.cells(sr.Figures)...))
		}
		s.Reasoning.Header, s.Reasoning.Rows = splitHeader(thinkingRows(inSetup(o.Providers, sr.Setup)))
		s.Failures = failureNotes(inSetup(o.Providers, sr.Setup), safetext.Line)
		page.Setups = append(page.Setups, s)
	}
	return pageTemplate().Execute(w, page)
}

//go:embed report.html.tmpl
var pageSource string

// pageTemplate's functions: line makes a word from outside one plain line
// (no control character or bidi override: a browser would honour those);
// table gives a table its count of word columns (left-aligned, wrapping
// anywhere, so no long model name widens the page). Parsed on first use:
// only `report --format html` needs it.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"line":          safetext.Line,
		"chartGeometry": func() geometry { return chartGeometry },
		"table": func(t htmlTable, words int) htmlTable {
			t.Words = words
			return t
		},
	}).Parse(pageSource))
})

// htmlPage is what the template shows. Strings are plain text: the
// template escapes them for where they stand.
type htmlPage struct {
	Sources, From, To string
	Count             string // "7 records, 9 races": what the tables count
	Notes             []string
	Sweeps            []htmlSweep // bench documents with a concurrency sweep (sweep_html.go)
	Setups            []htmlSetup
}

type htmlSetup struct {
	Label, Count           string
	ByProvider, ByProbeDay htmlTable
	Reasoning              htmlTable // thinkingRows; none without reasoning
	Providers              []htmlProvider
	Failures               []string // failureNotes
}

type htmlTable struct {
	Header []string
	Rows   [][]string
	Words  int // the first Words columns are words from files or providers
}

// htmlProvider is one provider's charts, or why it has none.
type htmlProvider struct {
	Name, Model string
	NoChart     string // the failures, when no stream completed
	Legend      []legendItem
	Charts      []chart
}

type legendItem struct{ Color, Probe string }

// chart is one figure over time, laid out: grid lines, axis labels, and a
// line and dots per probe. Empty says no stream defined the figure.
type chart struct {
	Title    string
	Empty    bool
	Grid     []gridLine
	Axis     float64 // y of the value 0
	From, To string
	Series   []chartSeries
}

type gridLine struct {
	Y, LabelY float64
	Label     string
}

type chartSeries struct {
	Color  string
	Points string // the polyline's points; "" with fewer than two
	Dots   []dot
}

type dot struct {
	X, Y  float64
	Title string
}

// geometry of a chart, in SVG pixels.
type geometry struct{ W, H, Left, Right, Top, Bottom int }

var chartGeometry = geometry{W: 560, H: 200, Left: 56, Right: 12, Top: 22, Bottom: 26}

// RightX and FootY place the x axis' end and its labels.
func (g geometry) RightX() int { return g.W - g.Right }
func (g geometry) FootY() int  { return g.H - 6 }
func (g geometry) MidY() int   { return g.H / 2 }
func (g geometry) LabelX() int { return g.Left - 4 }

// seriesColors are told apart in colour and in print (Tableau 10).
var seriesColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"}

func newHTMLProvider(g Group, series []probeSeries, from, to time.Time) htmlProvider {
	p := htmlProvider{Name: g.Provider, Model: g.Model}
	if g.OK == 0 {
		p.NoChart = g.failureText()
		return p
	}
	for i, s := range series {
		p.Legend = append(p.Legend, legendItem{seriesColors[i%len(seriesColors)], orDash(s.probe)})
	}
	p.Charts = []chart{
		newChart("Output speed (tok/s)", series, func(p point) float64 { return p.tps }, from, to),
		newChart("TTFT (ms)", series, func(p point) float64 { return p.ttft }, from, to),
	}
	return p
}

// point is one completed stream: when its race started, and its figures
// (NaN where undefined).
type point struct {
	at        time.Time
	tps, ttft float64
}

// probeSeries is one probe's points for one provider, in time order.
type probeSeries struct {
	probe  string
	points []point
}

type seriesKey struct {
	setup           Setup
	provider, model string
}

// seriesOf collects, per setup, provider and model, each probe's completed
// streams, probes sorted by name.
func seriesOf(records []Record) map[seriesKey][]probeSeries {
	byProbe := map[seriesKey]map[string][]point{}
	for _, rec := range records {
		for _, p := range rec.Providers {
			k := seriesKey{setupOf(rec), p.Name, p.Model}
			if byProbe[k] == nil {
				byProbe[k] = map[string][]point{}
			}
			for _, r := range p.Streams {
				if !r.OK {
					continue
				}
				pt := point{at: rec.StartedAt, tps: math.NaN(), ttft: math.NaN()}
				if r.OutputTPS != nil {
					pt.tps = *r.OutputTPS
				}
				if r.TTFTms != nil {
					pt.ttft = *r.TTFTms
				}
				byProbe[k][rec.Probe] = append(byProbe[k][rec.Probe], pt)
			}
		}
	}
	out := map[seriesKey][]probeSeries{}
	for k, probes := range byProbe {
		for _, name := range slices.Sorted(maps.Keys(probes)) {
			pts := probes[name]
			slices.SortStableFunc(pts, func(a, b point) int { return a.at.Compare(b.at) })
			out[k] = append(out[k], probeSeries{probe: name, points: pts})
		}
	}
	return out
}

func timeRange(records []Record) (from, to time.Time) {
	for i, r := range records {
		t := r.StartedAt.UTC()
		if i == 0 || t.Before(from) {
			from = t
		}
		if i == 0 || t.After(to) {
			to = t
		}
	}
	return from, to
}

// newChart lays out one figure over time: the y axis from 0 to a round
// maximum, the x axis from the first race to the last.
func newChart(title string, series []probeSeries, value func(point) float64, from, to time.Time) chart {
	c := chart{Title: title, From: from.Format("2006-01-02 15:04"), To: to.Format("2006-01-02 15:04")}
	top := 0.0
	for _, s := range series {
		for _, p := range s.points {
			if v := value(p); !math.IsNaN(v) {
				top = max(top, v)
			}
		}
	}
	if top == 0 {
		c.Empty = true
		return c
	}
	top = roundUp(top)
	g := chartGeometry
	plotW, plotH := float64(g.W-g.Left-g.Right), float64(g.H-g.Top-g.Bottom)
	x := func(t time.Time) float64 {
		span := to.Sub(from)
		if span <= 0 {
			return float64(g.Left) + plotW/2
		}
		return float64(g.Left) + plotW*float64(t.Sub(from))/float64(span)
	}
	y := func(v float64) float64 { return tenth(float64(g.Top) + plotH*(1-v/top)) }
	for _, frac := range []float64{0, 0.5, 1} {
		v := top * frac
		c.Grid = append(c.Grid, gridLine{Y: y(v), LabelY: y(v) + 4, Label: trimFloat(v)})
	}
	c.Axis = y(0)
	for i, s := range series {
		cs := chartSeries{Color: seriesColors[i%len(seriesColors)]}
		var line []string
		for _, p := range s.points {
			v := value(p)
			if math.IsNaN(v) {
				continue
			}
			px := tenth(x(p.at))
			line = append(line, fmt.Sprintf("%.1f,%.1f", px, y(v)))
			cs.Dots = append(cs.Dots, dot{X: px, Y: y(v), Title: orDash(s.probe) + " · " + p.at.UTC().Format("2006-01-02 15:04:05") + ": " + trimFloat(v)})
		}
		if len(line) > 1 {
			cs.Points = strings.Join(line, " ")
		}
		c.Series = append(c.Series, cs)
	}
	return c
}

// roundUp is the smallest of 1, 2, 2.5 or 5 × 10^k at or above v: an axis maximum a reader can read.
func roundUp(v float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= v {
			return m * mag
		}
	}
	return 10 * mag
}

func trimFloat(v float64) string { return fmt.Sprintf("%.4g", v) }

// tenth is v to 0.1 pixel: as precise as a chart can show.
func tenth(v float64) float64 { return math.Round(v*10) / 10 }
