package watch

import (
	"testing"

	"tpsrace/benchdoc"
	"tpsrace/metrics"
	"tpsrace/workload"
)

// Every workload figure whose description names a gauge has it, once
// (metrics.WorkloadGauges), with help.
func TestEveryWorkloadFigureHasItsGauge(t *testing.T) {
	e := NewExporter(false)
	for _, name := range workload.Names {
		w, _ := workload.Named(name)
		for _, f := range metrics.FiguresOf(w, false, 1) {
			if f.Gauge != "" && e.workload[f.Gauge] == nil {
				t.Errorf("%s %s: no gauge %s", name, f.Header, f.Gauge)
			}
		}
	}
	seen := map[string]bool{}
	for _, g := range workloadGauges() {
		if seen[g.name] || g.help == "" {
			t.Errorf("%s: twice, or without help", g.name)
		}
		seen[g.name] = true
	}
	if len(seen)+len(thinkingGauges) != len(e.workload) || len(seen) < 10 {
		t.Errorf("%d figures with a gauge, %d gauges", len(seen), len(e.workload))
	}
	thinking := thinkingFigures(benchdoc.Summary{ThinkingSummary: benchdoc.ThinkingSummary{Reasoned: 1}})
	if len(thinking) != len(thinkingGauges) {
		t.Errorf("%d thinking figures, %d gauges", len(thinking), len(thinkingGauges))
	}
	for name := range thinking {
		if e.workload[name] == nil {
			t.Errorf("%s has no gauge", name)
		}
	}
	if none := thinkingFigures(benchdoc.Summary{}); len(none) != 0 {
		t.Errorf("a race that did not think: %v", none)
	}
}
