package metrics

import (
	"strings"

	"tpsrace/workload"
)

// FiguresDoc is every workload's figures as Markdown tables, from their
// descriptions: docs/WORKLOADS.md holds it (TestWorkloadsDoc keeps it so).
func FiguresDoc() string {
	var b strings.Builder
	table := func(figs []Figure) {
		b.WriteString("| header | figure | unit | better | JSON (provider summary) | watch gauge | definition |\n|---|---|---|---|---|---|---|\n")
		for _, f := range figs {
			gauge := "-"
			if f.Gauge != "" {
				gauge = "`" + f.Gauge + "`"
			}
			header := "`" + f.Header + "`"
			if f.Decides {
				header = "**" + header + "**"
			}
			b.WriteString("| " + header + " | " + f.Name + " | " + f.Unit.String() + " | " + f.Better.String() + " | `" +
				f.Key + "` | " + gauge + " | " + f.Help + " |\n")
		}
	}
	for _, name := range workload.Names {
		w, _ := workload.Named(name)
		figs := FiguresOf(w, false, 1)
		b.WriteString("\n### " + name + "\n\n")
		if len(figs) == 0 {
			b.WriteString("The common figures only (TTFT, output speed, E2E, aggregate, tokens, cost).\n")
			continue
		}
		table(figs)
	}
	b.WriteString("\n### Under an SLO (any workload)\n\n")
	table(SLOFigures(2))
	b.WriteString("\n### Where some stream thought (any workload)\n\n")
	table(ReasoningFigures())
	b.WriteString("\n")
	return b.String()
}

// String is how docs/WORKLOADS.md names the unit.
func (u Unit) String() string {
	return [...]string{"time", "tok/s", "tokens", "share", "count of streams", "per second"}[u]
}

// String is how docs/WORKLOADS.md names the direction.
func (b Better) String() string { return [...]string{"lower", "higher"}[b] }
