package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"tpsrace/format"
	"tpsrace/safetext"
	"tpsrace/workload"
)

// Change is one figure of one provider in two results, A and B.
type Change struct {
	Setups          [2]Setup // what A and B raced (the same unless compared with --force)
	Provider, Model string
	Figure          string   // e.g. "TTFT p50"
	Unit            string   // "ms", "tok/s" or "%"
	A, B            *float64 // nil where the result lacks the provider or the figure
	// Simulated: A's and B's figure came from races of the built-in
	// simulated providers (some of them).
	Simulated [2]bool
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
// setup by setup, pairing providers by name and model (a provider whose
// model changed is two rows, each with one side undefined), in A's order,
// then B's newcomers. Two summaries of different setups are refused, naming
// the difference, unless force: then a setup of one side alone is compared
// with nothing, and when each side holds one setup, those two are compared.
func Compare(a, b Overview, force bool) ([]Change, error) {
	pairs, err := pairSetups(a, b, force)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, setups := range pairs {
		changes = append(changes, compareSetup(a, b, setups)...)
	}
	return changes, nil
}

// pairSetups pairs the setups of a and b (see Compare).
func pairSetups(a, b Overview, force bool) ([][2]Setup, error) {
	if len(a.Setups) == 1 && len(b.Setups) == 1 {
		sa, sb := a.Setups[0].Setup, b.Setups[0].Setup
		if sa != sb && !force {
			return nil, fmt.Errorf("A and B raced different setups (%s): their figures are not comparable; --force compares them anyway", differences(sa, sb))
		}
		return [][2]Setup{{sa, sb}}, nil
	}
	var pairs [][2]Setup
	var alone []string
	for _, side := range []struct {
		name        string
		this, other Overview
	}{{"A", a, b}, {"B", b, a}} {
		for _, sr := range side.this.Setups {
			if slices.ContainsFunc(side.other.Setups, func(o SetupRaces) bool { return o.Setup == sr.Setup }) {
				if side.name == "A" {
					pairs = append(pairs, [2]Setup{sr.Setup, sr.Setup})
				}
				continue
			}
			alone = append(alone, side.name+" alone raced "+sr.label(safetext.Line))
			pairs = append(pairs, [2]Setup{sr.Setup, sr.Setup})
		}
	}
	if len(alone) > 0 && !force {
		return nil, fmt.Errorf("A and B raced different setups (%s); --force compares what they share and shows the rest one-sided", strings.Join(alone, "; "))
	}
	return pairs, nil
}

// compareSetup is the changes of A's setups[0] against B's setups[1].
func compareSetup(a, b Overview, setups [2]Setup) []Change {
	find := func(s Overview, setup Setup, provider, model string) *Group {
		for i := range s.Providers {
			if g := &s.Providers[i]; g.Setup == setup && g.Provider == provider && g.Model == model {
				return g
			}
		}
		return nil
	}
	pairs := slices.Clone(inSetup(a.Providers, setups[0]))
	for _, g := range inSetup(b.Providers, setups[1]) {
		if find(a, setups[0], g.Provider, g.Model) == nil {
			pairs = append(pairs, g)
		}
	}
	var changes []Change
	for _, p := range pairs {
		ga, gb := find(a, setups[0], p.Provider, p.Model), find(b, setups[1], p.Provider, p.Model)
		for _, f := range comparedFigures {
			c := Change{Setups: setups, Provider: p.Provider, Model: p.Model, Figure: f.name, Unit: f.unit}
			if ga != nil {
				c.A, c.Simulated[0] = f.of(ga), ga.Simulated
			}
			if gb != nil {
				c.B, c.Simulated[1] = f.of(gb), gb.Simulated
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
// the two columns (the file names). In Markdown each pair of setups is its
// own table under its label; CSV gives each row its setups.
func WriteComparison(w io.Writer, changes []Change, nameA, nameB, format string) error {
	switch format {
	case "markdown", "md":
		if sides := simulatedSides(changes, nameA, nameB); sides != "" {
			fmt.Fprintf(w, "Includes SIMULATED providers (tpsrace's simulator) in %s: not real measurements of any provider.\n\n", sides)
		}
		for i, c := range changes {
			if i > 0 && c.Setups == changes[i-1].Setups {
				continue
			}
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s\n\n", setupsLabel(c.Setups))
			rows := [][]string{{"provider", "model", "figure", "A: " + nameA, "B: " + nameB, "change (B − A)"}}
			for _, d := range changes[i:] {
				if d.Setups != c.Setups {
					break
				}
				rows = append(rows, d.cells())
			}
			writeMarkdownTable(w, rows, 2)
		}
		return nil
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"provider", "model", "figure", "unit", "a", "b", "change", "change_pct",
			"concurrency_a", "concurrency_b", "max_tokens_a", "max_tokens_b", "prompt_a", "prompt_b", "workload_a", "workload_b",
			"simulated_a", "simulated_b"})
		for _, c := range changes {
			var d, r *float64
			if v, ok := c.Delta(); ok {
				d = &v
			}
			if v, ok := c.Relative(); ok {
				r = &v
			}
			writeCSVRow(cw, []string{c.Provider, c.Model, c.Figure, c.Unit, csvNum(c.A), csvNum(c.B), csvNum(d), csvNum(r),
				strconv.Itoa(c.Setups[0].Concurrency), strconv.Itoa(c.Setups[1].Concurrency),
				strconv.Itoa(c.Setups[0].MaxTokens), strconv.Itoa(c.Setups[1].MaxTokens), c.Setups[0].Prompt, c.Setups[1].Prompt,
				workload.Workload{Name: c.Setups[0].Workload}.Label(), workload.Workload{Name: c.Setups[1].Workload}.Label(),
				strconv.FormatBool(c.Simulated[0]), strconv.FormatBool(c.Simulated[1])})
		}
		cw.Flush()
		return cw.Error()
	}
	return fmt.Errorf("unknown format %q for --compare (want markdown or csv)", format)
}

// simulatedSides names the sides whose compared figures include races of
// the simulated providers ("A: x.json", "A: x.json and B: y.json"), "" for
// none.
func simulatedSides(changes []Change, nameA, nameB string) string {
	var sides []string
	for k, name := range []string{"A: " + nameA, "B: " + nameB} {
		if slices.ContainsFunc(changes, func(c Change) bool { return c.Simulated[k] }) {
			sides = append(sides, name)
		}
	}
	return strings.Join(sides, " and ")
}

// setupsLabel heads a comparison's table in Markdown: "**Setup** C=1 · …",
// or both setups when they differ (compared with --force).
func setupsLabel(s [2]Setup) string {
	if s[0] == s[1] {
		return "**Setup** " + s[0].label(safetext.Markdown)
	}
	return "**Setups differ** (compared with --force): A " + s[0].label(safetext.Markdown) + "; B " + s[1].label(safetext.Markdown)
}
