package ui

import (
	"tpsrace/ui/live"
	"tpsrace/ui/workloadview"
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
