package sweepview

import (
	"strconv"
	"strings"

	"tpsrace/format"
	"tpsrace/metrics"
)

// table is the levels' figures in at most rows lines: a row per level and
// provider when they fit, else a row per provider at its headline level
// (the knee, or the highest aggregate), the curves being in the charts.
func (m Model) table(rows int) []string {
	if len(m.raced) == 0 {
		return nil
	}
	perLevel := 1 + len(m.sweep.Levels)*len(m.sweep.Curves)
	if perLevel <= rows {
		return m.levelRows()
	}
	if 1+len(m.sweep.Curves) > rows {
		return nil
	}
	return m.headlineRows()
}

// widths are the table's columns: C and the provider left-aligned, the
// figures right-aligned, then the goodput with an SLO; the marks follow.
func (m Model) widths() []int {
	w := []int{6, 12, 11, 11, 14, 9}
	if m.hasSLO() {
		w = append(w, 13)
	}
	return w
}

func (m Model) row(cells ...string) string {
	var b strings.Builder
	widths := m.widths()
	for i, c := range cells {
		switch {
		case i < 2:
			b.WriteString(format.PadRight(c, widths[i]))
		case i < len(widths):
			b.WriteString(format.PadLeft(c, widths[i]))
		default:
			b.WriteString("  " + c)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

func (m Model) header(first string) string {
	cells := []string{first, "provider", "user tok/s", "agg tok/s", "TTFT p50/p95", "E2E p50"}
	if m.hasSLO() {
		cells = append(cells, "goodput")
	}
	return m.styles.Label.Render(m.row(cells...))
}

// levelRows is a row per level and provider.
func (m Model) levelRows() []string {
	out := []string{m.header("C")}
	for l := range m.sweep.Levels {
		for i, curve := range m.sweep.Curves {
			p := curve.Points[l]
			out = append(out, m.styles.provider(i).Render(m.row(append([]string{level(p, curve.Knee)}, m.cells(curve.Name, p)...)...)))
		}
	}
	return out
}

// headlineRows is a row per provider at the level its verdict quotes.
func (m Model) headlineRows() []string {
	out := []string{m.header("at C")}
	for i, curve := range m.sweep.Curves {
		p, ok := curve.Headline()
		if !ok {
			out = append(out, m.styles.provider(i).Render(m.row(format.Undefined, curve.Name, "no aggregate")))
			continue
		}
		out = append(out, m.styles.provider(i).Render(m.row(append([]string{level(p, curve.Knee)}, m.cells(curve.Name, p)...)...)))
	}
	return out
}

// level is a row's C, marked as its chart marker is: ◆ the knee, ○ a
// level tpsrace may have bent.
func level(p metrics.SweepPoint, knee metrics.Knee) string {
	c := strconv.Itoa(p.Concurrency)
	switch {
	case p.ClientBent:
		return c + " " + string(markBent)
	case knee.Found && knee.At == p.Concurrency:
		return c + " " + string(markKnee)
	}
	return c
}

// cells are a provider's name and its point's figures, then the referee's
// flags (client_saturated: tpsrace may have bent the level).
func (m Model) cells(name string, p metrics.SweepPoint) []string {
	und := format.Undefined
	perUser, aggregate := und, und
	if u, ok := p.PerUser(); ok {
		perUser = format.TPS(u)
	}
	if p.Aggregate.Runs > 0 {
		aggregate = format.TPS(p.Aggregate.Median)
	}
	ttft, e2e := und, und
	if t := p.Summary.TTFT; t.Has() {
		ttft = format.Duration(t.P50) + "/" + format.Duration(t.P95)
	}
	if e := p.Summary.E2E; e.Has() {
		e2e = format.Duration(e.P50)
	}
	flags := ""
	if len(p.Flags) > 0 {
		flags = "⚑ " + strings.Join(p.Flags.Names(), ",")
	}
	cells := []string{name, perUser, aggregate, ttft, e2e}
	if m.hasSLO() {
		cells = append(cells, m.goodput(p))
	}
	return append(cells, flags)
}

// goodput is the share of the level's streams that met the SLO, and at
// C > 1 the good streams per second.
func (m Model) goodput(p metrics.SweepPoint) string {
	g := p.Summary.Goodput
	if g.Streams == 0 {
		return format.Undefined
	}
	text := format.Percent(g.Share)
	if g.HasPerSecond {
		text += " " + format.Short(g.PerSecond) + "/s"
	}
	return text
}

func (m Model) hasSLO() bool {
	for _, p := range m.opts.Config.Providers {
		if p.SLO.Set() {
			return true
		}
	}
	return false
}
