package watch

import "tpsrace/metrics"

// thinkingGauges are a reasoning race's figures (metrics.ReasoningFigures)
// exported as gauges: set only by a run where some stream thought.
func thinkingGauges() []gaugeFigure {
	var out []gaugeFigure
	for _, f := range metrics.ReasoningFigures() {
		out = append(out, gaugeFigure{f.Gauge, "Reasoning: " + f.Help + unitNote(f.Unit)})
	}
	return out
}
