package watch

import (
	"testing"

	"tpsrace/benchdoc"
)

// Every figure a summary can give has its gauge, and a summary without a
// workload gives none.
func TestEveryWorkloadFigureHasItsGauge(t *testing.T) {
	v := 1.0
	pv := &v
	full := benchdoc.Summary{ToolCall: &benchdoc.ToolSummary{}, JSON: &benchdoc.JSONSummary{}, PrefillTPS: &pv,
		PrefixCache: &benchdoc.PrefixCache{}, ConversationMS: &benchdoc.Percentiles2{}}
	e := NewExporter(false)
	figures := workloadFigures(full)
	if len(figures) != len(workloadGauges) {
		t.Errorf("%d figures, %d gauges", len(figures), len(workloadGauges))
	}
	for name := range figures {
		if e.workload[name] == nil {
			t.Errorf("%s has no gauge", name)
		}
	}
	if chat := workloadFigures(benchdoc.Summary{}); len(chat) != 0 {
		t.Errorf("chat: %v", chat)
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
