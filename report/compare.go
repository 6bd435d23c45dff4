package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"tpsrace/format"
)

// Change is one figure of one provider in two results, A and B.
type Change struct {
	Provider, Model string
	Figure          string   // e.g. "TTFT p50"
	Unit            string   // "ms", "tok/s" or "%"
	A, B            *float64 // nil where the result lacks the provider or the figure
}

// Delta is B − A, when both are defined.
func (c Change) Delta() (float64, bool) {
	if c.A == nil || c.B == nil {
		return 0, false
	}
	return *c.B - *c.A, true
}

// Relative is (B − A) / A in percent, when both are defined and A is not 0.
// It is not given for a success rate, whose change is in points.
func (c Change) Relative() (float64, bool) {
	d, ok := c.Delta()
	if !ok || *c.A == 0 || c.Unit == "%" {
		return 0, false
	}
	return 100 * d / *c.A, true
}

// Compare puts the per-provider figures of two summaries side by side,
// pairing providers by name and model (a provider whose model changed is
// two rows, each with one side undefined), in A's order, then B's newcomers.
func Compare(a, b Overview) []Change {
	find := func(s Overview, provider, model string) *Group {
		for i := range s.Providers {
			if g := &s.Providers[i]; g.Provider == provider && g.Model == model {
				return g
			}
		}
		return nil
	}
	pairs := slices.Clone(a.Providers)
	for _, g := range b.Providers {
		if find(a, g.Provider, g.Model) == nil {
			pairs = append(pairs, g)
		}
	}
	var changes []Change
	for _, p := range pairs {
		ga, gb := find(a, p.Provider, p.Model), find(b, p.Provider, p.Model)
		for _, f := range comparedFigures {
			c := Change{Provider: p.Provider, Model: p.Model, Figure: f.name, Unit: f.unit}
			if ga != nil {
				c.A = f.of(ga)
			}
			if gb != nil {
				c.B = f.of(gb)
			}
			changes = append(changes, c)
		}
	}
	return changes
}

// comparedFigures are the figures --compare shows, each read from a group.
var comparedFigures = []struct {
	name, unit string
	of         func(*Group) *float64
}{
	{"TTFT p50", "ms", func(g *Group) *float64 { return g.TTFTms.P50 }},
	{"TTFT p95", "ms", func(g *Group) *float64 { return g.TTFTms.P95 }},
	{"tok/s p50", "tok/s", func(g *Group) *float64 { return g.OutputTPS.P50 }},
	{"tok/s p95", "tok/s", func(g *Group) *float64 { return g.OutputTPS.P95 }},
	{"E2E p50", "ms", func(g *Group) *float64 { return g.E2Ems.P50 }},
	{"E2E p95", "ms", func(g *Group) *float64 { return g.E2Ems.P95 }},
	{"completed", "%", func(g *Group) *float64 {
		if g.OK+g.Failed == 0 {
			return nil
		}
		return ptr(100 * float64(g.OK) / float64(g.OK+g.Failed))
	}},
}

// changeText is "+20ms (+9.4%)", "-21.0 tok/s (-16.7%)", "+5.0 points"
// for the share of completed streams, "-" when undefined.
func (c Change) changeText() string {
	d, ok := c.Delta()
	if !ok {
		return format.Undefined
	}
	if c.Unit == "%" {
		return fmt.Sprintf("%+.1f points", d)
	}
	s := c.value(math.Abs(d))
	switch {
	case strings.Trim(s, "0.,ms") == "": // rounds to nothing: no sign
	case d > 0:
		s = "+" + s
	default:
		s = "-" + s
	}
	if r, ok := c.Relative(); ok {
		s += fmt.Sprintf(" (%+.1f%%)", r)
	}
	return s
}

// value is v written in the figure's unit, as the overview writes it.
func (c Change) value(v float64) string {
	switch c.Unit {
	case "ms":
		return duration(&v)
	case "%":
		return fmt.Sprintf("%.1f%%", v)
	}
	return speed(&v) + " tok/s"
}

// cells are the change's row as shown in Markdown.
func (c Change) cells() []string {
	value := func(v *float64) string {
		if v == nil {
			return format.Undefined
		}
		return c.value(*v)
	}
	return []string{c.Provider, c.Model, c.Figure, value(c.A), value(c.B), c.changeText()}
}

// WriteComparison renders changes as Markdown or CSV; nameA and nameB head
// the two columns (the file names).
func WriteComparison(w io.Writer, changes []Change, nameA, nameB, format string) error {
	switch format {
	case "markdown", "md":
		rows := [][]string{{"provider", "model", "figure", "A: " + nameA, "B: " + nameB, "change (B − A)"}}
		for _, c := range changes {
			rows = append(rows, c.cells())
		}
		writeMarkdownTable(w, rows)
		return nil
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"provider", "model", "figure", "unit", "a", "b", "change", "change_pct"})
		for _, c := range changes {
			var d, r *float64
			if v, ok := c.Delta(); ok {
				d = &v
			}
			if v, ok := c.Relative(); ok {
				r = &v
			}
			writeCSVRow(cw, []string{c.Provider, c.Model, c.Figure, c.Unit, csvNum(c.A), csvNum(c.B), csvNum(d), csvNum(r)})
		}
		cw.Flush()
		return cw.Error()
	}
	return fmt.Errorf("unknown format %q for --compare (want markdown or csv)", format)
}
