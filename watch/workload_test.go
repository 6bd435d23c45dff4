package watch

import (
	"testing"

	"tpsrace/metrics"
	"tpsrace/workload"
)

// Every workload figure whose description names a gauge has it, once, with
// help; a chat race has none to set.
func TestEveryWorkloadFigureHasItsGauge(t *testing.T) {
	e := NewExporter(false)
	seen := map[string]string{}
	for _, name := range workload.Names {
		w, _ := workload.Named(name)
		for _, f := range metrics.FiguresOf(w, false, 1) {
			if f.Gauge == "" {
				continue
			}
			if other, ok := seen[f.Gauge]; ok {
				t.Errorf("%s: %s is %s's gauge too", name, f.Gauge, other)
			}
			seen[f.Gauge] = name + " " + f.Header
			if e.workload[f.Gauge] == nil {
				t.Errorf("%s %s: no gauge %s", name, f.Header, f.Gauge)
			}
		}
	}
	if len(seen) != len(e.workload) || len(seen) < 10 {
		t.Errorf("%d figures with a gauge, %d gauges", len(seen), len(e.workload))
	}
}
