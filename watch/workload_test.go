package watch

import (
	"testing"

	"tpsrace/metrics"
	"tpsrace/workload"
)

// Every workload figure whose description names a gauge has it, once
// (metrics.WorkloadGauges), with help.
func TestEveryWorkloadFigureHasItsGauge(t *testing.T) {
	e := NewExporter(nil)
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
	if len(seen)+len(thinkingGauges()) != len(e.workload) || len(seen) < 10 {
		t.Errorf("%d figures with a gauge, %d gauges", len(seen), len(e.workload))
	}
	for _, f := range metrics.ReasoningFigures() {
		if e.workload[f.Gauge] == nil {
			t.Errorf("reasoning %s: no gauge %s", f.Header, f.Gauge)
		}
	}
}
