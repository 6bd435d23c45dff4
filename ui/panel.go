package ui

import (
	"tpsrace/ui/live"
	"tpsrace/ui/speedchart"
	"tpsrace/ui/workloadview"
	"tpsrace/workload"
)

// panelRows is the workload panel's height range: none unless the
// workload's runs take several races (workloadview.Rows); presenter mode
// shows its own stage.
func (m *Model) panelRows() PanelRows {
	if m.present != nil {
		return PanelRows{}
	}
	least, most := workloadview.Rows(m.c.config.Workload.Name, len(m.lanes))
	return PanelRows{least, most}
}

// panelFigures are the workload panel's figures: each provider's figures
// over the run of the race on screen, as the session keeps them (none
// before the first race).
func (m *Model) panelFigures(figs []live.Snapshot) workloadview.Figures {
	f := workloadview.Figures{Workload: m.c.config.Workload.Name}
	for i, fig := range figs {
		p := workloadview.Row{Name: m.s.live[i].Name}
		if w := fig.Workload; w != nil {
			f.Step, f.Steps, f.InputTokens = w.Step, w.Steps, w.InputTokens
			p.WorkloadRuns = &w.WorkloadRuns
		}
		f.Providers = append(f.Providers, p)
	}
	return f
}

// timeline is the chart's timeline of a race whose figure is a time (the
// tool-call and json workloads; nil under the others): each provider's
// wait to the first piece and the time to its figure, the run's own
// (live.WorkloadRun, bench's figures) once settled; before, as they come:
// a tool call's first delta and its completion (live.Snapshot's ToolFirst
// and ToolComplete), a json answer's first byte.
func timeline(figs []live.Snapshot) *speedchart.Timeline {
	if len(figs) == 0 || figs[0].Workload == nil {
		return nil
	}
	var t speedchart.Timeline
	name := figs[0].Workload.Name
	switch name {
	case workload.ToolCall:
		t.Title = "to a complete tool call"
	case workload.JSON:
		t.Title = "to valid JSON"
	default:
		return nil
	}
	for _, f := range figs {
		s := speedchart.Span{Failed: f.Status == live.Failed, End: f.Elapsed}
		switch {
		case f.Workload != nil && f.Workload.Settled():
			r := f.Workload.Ranked
			first, done, valid, streams := r.ToolFirst, r.ToolComplete, r.ToolValid, r.ToolStreams
			if name == workload.JSON {
				first, done, valid, streams = r.JSONFirst, r.JSONValidAt, r.JSONValid, r.JSONStreams
			}
			s.First, s.HasFirst, s.Done, s.HasDone = first.P50, first.Has(), done.P50, done.Has()
			s.Settled, s.Valid = true, streams > 0 && valid == streams
		case name == workload.ToolCall:
			s.First, s.HasFirst, s.Done, s.HasDone = f.ToolFirst.P50, f.ToolFirst.Has(), f.ToolComplete.P50, f.ToolComplete.Has()
		case f.HasTTFA:
			s.First, s.HasFirst = f.TTFA, true
		}
		t.Spans = append(t.Spans, s)
	}
	return &t
}
