package report

import (
	"fmt"
	"html"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// WriteHTML renders o as one self-contained page: the tables of the
// Markdown report and, per provider, inline SVG charts of output speed and
// TTFT over time (one series per probe). It loads nothing: no script, no
// font, no image, and a Content-Security-Policy that lets the browser
// refuse anything else, so it reads the same offline; print CSS keeps each
// provider's charts on one page. records are those o summarises; sources
// name the files they came from.
func (o Overview) WriteHTML(w io.Writer, records []Record, sources []string) error {
	var b strings.Builder
	b.WriteString(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tpsrace report</title>
<style>` + pageCSS + `</style></head><body>
<h1>tpsrace report</h1>
`)
	from, to := timeRange(records)
	fmt.Fprintf(&b, "<p class=\"meta\">%d race record(s) from %s, %s – %s (UTC).</p>\n", len(records),
		html.EscapeString(strings.Join(sources, ", ")), from.Format("2006-01-02 15:04"), to.Format("2006-01-02 15:04"))
	b.WriteString("<ul class=\"notes\">\n")
	for _, n := range o.notes() {
		fmt.Fprintf(&b, "<li>%s</li>\n", html.EscapeString(n))
	}
	b.WriteString("</ul>\n<h2>By provider</h2>\n")
	rows := [][]string{append([]string{"provider", "model"}, groupHeader...)}
	for _, g := range o.Providers {
		rows = append(rows, append([]string{g.Provider, g.Model}, g.cells()...))
	}
	writeHTMLTable(&b, rows)

	b.WriteString("<h2>Over time</h2>\n")
	series := seriesOf(records)
	for _, g := range o.Providers {
		s := series[[2]string{g.Provider, g.Model}]
		fmt.Fprintf(&b, "<section class=\"provider\"><h3>%s <span class=\"model\">%s</span></h3>\n", html.EscapeString(g.Provider), html.EscapeString(g.Model))
		if g.OK == 0 {
			fmt.Fprintf(&b, "<p>No completed stream to chart (failures: %s).</p></section>\n", html.EscapeString(g.failureText()))
			continue
		}
		writeLegend(&b, s)
		b.WriteString("<div class=\"charts\">\n")
		writeChart(&b, "Output speed (tok/s)", s, func(p point) float64 { return p.tps }, from, to)
		writeChart(&b, "TTFT (ms)", s, func(p point) float64 { return p.ttft }, from, to)
		b.WriteString("</div></section>\n")
	}

	b.WriteString("<h2>By provider, probe and day</h2>\n")
	rows = [][]string{append([]string{"provider", "model", "probe", "day"}, groupHeader...)}
	for _, g := range o.ByProbeDay {
		rows = append(rows, append([]string{g.Provider, g.Model, orDash(g.Probe), g.Day}, g.cells()...))
	}
	writeHTMLTable(&b, rows)
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

const pageCSS = `
body { font: 14px/1.4 system-ui, sans-serif; color: #222; background: #fff; margin: 2em auto; max-width: 1200px; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
h3 { margin: 1em 0 .3em; } .model { font-weight: normal; color: #666; font-size: .85em; }
.meta { color: #555; } .notes { color: #555; font-size: .9em; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; font-size: .85em; margin: .5em 0; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: right; white-space: nowrap; }
th { background: #f3f3f3; } td:nth-child(-n+2), th:nth-child(-n+2) { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
.legend { font-size: .85em; margin: 0; } .legend span { display: inline-block; margin-right: 1em; }
.swatch { display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: -.1em; }
svg { background: #fff; } svg text { font: 11px system-ui, sans-serif; fill: #444; }
svg .axis { stroke: #999; stroke-width: 1; } svg .grid { stroke: #eee; stroke-width: 1; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  .wide { overflow: visible; } table { font-size: 6.5pt; } th, td { padding: 1px 3px; }
  section.provider { break-inside: avoid; } tr { break-inside: avoid; } h2 { break-after: avoid; }
}
`

// seriesColors are told apart in colour and in print (Tableau 10).
var seriesColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"}

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

// seriesOf collects, per provider and model, each probe's completed
// streams, probes sorted by name.
func seriesOf(records []Record) map[[2]string][]probeSeries {
	byProbe := map[[2]string]map[string][]point{}
	for _, rec := range records {
		for _, p := range rec.Providers {
			k := [2]string{p.Name, p.Model}
			if byProbe[k] == nil {
				byProbe[k] = map[string][]point{}
			}
			for _, r := range p.Runs {
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
	out := map[[2]string][]probeSeries{}
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

func writeLegend(b *strings.Builder, series []probeSeries) {
	b.WriteString("<p class=\"legend\">")
	for i, s := range series {
		fmt.Fprintf(b, "<span><span class=\"swatch\" style=\"background:%s\"></span>probe %s</span>", seriesColors[i%len(seriesColors)], html.EscapeString(orDash(s.probe)))
	}
	b.WriteString("</p>\n")
}

// Chart geometry, in SVG pixels.
const (
	chartW, chartH                       = 560, 200
	padLeft, padRight, padTop, padBottom = 56, 12, 22, 26
)

// writeChart draws one figure over time: a line and dots per probe, the y
// axis from 0 to a round maximum, the x axis from the first race to the last.
// A chart without a defined value says so instead of drawing an empty frame.
func writeChart(b *strings.Builder, title string, series []probeSeries, value func(point) float64, from, to time.Time) {
	top := 0.0
	for _, s := range series {
		for _, p := range s.points {
			if v := value(p); !math.IsNaN(v) {
				top = max(top, v)
			}
		}
	}
	fmt.Fprintf(b, "<svg class=\"chart\" role=\"img\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n", chartW, chartH, chartW, chartH)
	fmt.Fprintf(b, "<title>%s</title><text x=\"%d\" y=\"14\">%s</text>\n", html.EscapeString(title), padLeft, html.EscapeString(title))
	if top == 0 {
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\">no completed stream defined this figure</text></svg>\n", padLeft, chartH/2)
		return
	}
	top = roundUp(top)
	plotW, plotH := float64(chartW-padLeft-padRight), float64(chartH-padTop-padBottom)
	x := func(t time.Time) float64 {
		span := to.Sub(from)
		if span <= 0 {
			return padLeft + plotW/2
		}
		return padLeft + plotW*float64(t.Sub(from))/float64(span)
	}
	y := func(v float64) float64 { return padTop + plotH*(1-v/top) }
	for _, frac := range []float64{0, 0.5, 1} {
		v := top * frac
		fmt.Fprintf(b, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			padLeft, chartW-padRight, y(v), y(v), padLeft-4, y(v)+4, trimFloat(v))
	}
	fmt.Fprintf(b, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", padLeft, chartW-padRight, y(0), y(0))
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
		padLeft, chartH-6, from.Format("2006-01-02 15:04"), chartW-padRight, chartH-6, to.Format("2006-01-02 15:04"))
	for i, s := range series {
		color := seriesColors[i%len(seriesColors)]
		var line []string
		var dots strings.Builder
		for _, p := range s.points {
			v := value(p)
			if math.IsNaN(v) {
				continue
			}
			line = append(line, fmt.Sprintf("%.1f,%.1f", x(p.at), y(v)))
			fmt.Fprintf(&dots, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s · %s: %s</title></circle>\n",
				x(p.at), y(v), color, html.EscapeString(orDash(s.probe)), p.at.UTC().Format("2006-01-02 15:04:05"), trimFloat(v))
		}
		if len(line) > 1 {
			fmt.Fprintf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", color, strings.Join(line, " "))
		}
		b.WriteString(dots.String())
	}
	b.WriteString("</svg>\n")
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

func writeHTMLTable(b *strings.Builder, rows [][]string) {
	b.WriteString("<div class=\"wide\"><table>\n")
	for i, r := range rows {
		cell := "td"
		if i == 0 {
			cell = "th"
		}
		b.WriteString("<tr>")
		for _, c := range r {
			fmt.Fprintf(b, "<%s>%s</%s>", cell, html.EscapeString(c), cell)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n")
}
