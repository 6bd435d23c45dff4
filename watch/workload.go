package watch

import (
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"tpsrace/benchdoc"
	"tpsrace/metrics"
)

// workloadGauges are the workloads' figures watch exports
// (metrics.WorkloadGauges), the help saying the gauge's unit.
func workloadGauges() []gaugeFigure {
	var out []gaugeFigure
	for _, f := range metrics.WorkloadGauges() {
		out = append(out, gaugeFigure{f.Gauge, f.Help + unitNote(f.Unit)})
	}
	return out
}

// gaugeFigure is a gauge's name and help.
type gaugeFigure struct{ name, help string }

// unitNote says the gauge's unit where the help's words do not.
func unitNote(u metrics.Unit) string {
	switch u {
	case metrics.Seconds:
		return " In seconds."
	case metrics.Count, metrics.Share:
		return " As a share, 0-1."
	}
	return ""
}

// ObserveRun sets the workload and thinking gauges from b, the bench document of one
// run (a sweep, a cold and warm pair, a conversation, or one race) raced
// from probe: each figure as bench computes it (benchdoc.Bench.Figures,
// read through its description), so the series and `bench` of the same
// races never disagree. A figure the run does not have leaves its gauge
// at its last value, and a run cut short by a stop sets none: its
// figures cover part of the run.
func (e *Exporter) ObserveRun(probe string, b *benchdoc.Bench) {
	if b.Interrupted {
		return
	}
	figs := b.Figures()
	for i, p := range b.Providers {
		l := prometheus.Labels{"provider": p.Name, "model": p.Model, "probe": probe}
		var reasoning []metrics.Figure // set only by a run where some stream thought
		if figs[i].All.Reasoned > 0 {
			reasoning = metrics.ReasoningFigures()
		}
		for _, f := range slices.Concat(metrics.FiguresOf(b.WorkloadOf(), false, b.Concurrency), reasoning) {
			if g := e.workload[f.Gauge]; g != nil {
				if v, ok := f.GaugeValue(f.Of(figs[i])); ok {
					g.With(l).Set(v)
				}
			}
		}
	}
}
