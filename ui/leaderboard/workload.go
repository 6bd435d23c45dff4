package leaderboard

import (
	"math"
	"slices"
	"strconv"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// workload is the workload's run the race belongs to (live.WorkloadRun,
// the same for every provider but its figures); nil under chat or before
// the session has one.
func (m *Model) workload() *live.WorkloadRun {
	for _, f := range m.figures {
		if isWorkload(f) {
			return f.Workload
		}
	}
	return nil
}

// workloadColumns stand in for TTFT and tok/s under a workload (nil under
// chat): where the race on screen is in its run (the description's step:
// the input size, the turn, cold or warm), its TTFT live, then the
// workload's figures as every view writes them (metrics.FiguresOf), each
// over the run's finished races (live.WorkloadRun, bench's figures of the
// same races): muted, or "…", until the race on screen is among them.
func (m *Model) workloadColumns(dash string) []column {
	w := m.workload()
	if w == nil {
		return nil
	}
	s := m.styles
	var cols []column
	if d := w.Description(); d.StepHeader != "" {
		text := d.Step(w.OnScreen, w.Steps)
		cols = append(cols, column{header: d.StepHeader, width: len(d.StepHeader), right: true, priority: 1, cell: func(row) string { return text }})
	}
	cols = append(cols, column{header: "TTFT", width: 6, right: true, priority: 2, cell: func(r row) string {
		switch f := r.f; {
		case !f.HasTTFT:
			return dash
		case !f.Settled:
			return s.Muted.Render(format.Duration(f.TTFT))
		default:
			return format.Duration(f.TTFT)
		}
	}})
	for _, f := range w.Figures() {
		cols = append(cols, m.figureColumn(f, dash))
	}
	return cols
}

// figureColumn is one of the workload's figures: what the verdict
// compares kept at every width and drawn as the figure, details dropped
// first.
func (m *Model) figureColumn(fig metrics.Figure, dash string) column {
	s := m.styles
	priority := 1
	switch {
	case fig.Decides:
		priority = 0
	case fig.Detail:
		priority = 2
	}
	return column{header: fig.Header, width: len([]rune(fig.Header)), right: true, priority: priority, cell: func(r row) string {
		w := r.f.Workload
		if w == nil {
			return dash
		}
		reading := fig.Of(w.WorkloadRuns)
		text := fig.Text(reading)
		switch {
		case !reading.OK && reading.Why == "" && !w.Settled():
			return s.Muted.Render("…")
		case !reading.OK && reading.Why == "":
			return dash
		case !reading.OK, !w.Settled():
			return s.Muted.Render(text)
		case fig.Decides:
			return s.Figure.Render(text)
		}
		return text
	}}
}

// isWorkload is whether f is of a workload's race with figures of its own
// (not chat).
func isWorkload(f live.Snapshot) bool { return f.Workload != nil && len(f.Workload.Figures()) > 0 }

// rankedRuns are the providers' runs the verdict ranks
// (live.WorkloadRun.Ranked), once a workload's run has ended: its last
// race has finished (ok false before, and under chat).
func rankedRuns(figs []live.Snapshot) ([]metrics.Summary, bool) {
	running := func(f live.Snapshot) bool {
		return !isWorkload(f) || !f.Workload.Settled() || f.Workload.Step < f.Workload.Steps
	}
	if len(figs) == 0 || slices.ContainsFunc(figs, running) { // checked first: the board asks every frame
		return nil, false
	}
	runs := make([]metrics.Summary, len(figs))
	for i, f := range figs {
		runs[i] = f.Workload.Ranked
	}
	return runs, true
}

// nextStep is what the verdict line says once a race that is not its
// workload run's last has finished: the verdict waits for the run's last
// race, in the description's words ("" when the race is a run's last, or
// under chat).
func nextStep(figs []live.Snapshot) string {
	if len(figs) == 0 || !isWorkload(figs[0]) {
		return ""
	}
	w := figs[0].Workload
	if !w.Settled() || w.Step >= w.Steps {
		return ""
	}
	of := strconv.Itoa(w.Step) + "/" + strconv.Itoa(w.Steps)
	if w.Description().Waiting != nil {
		return w.Description().Waiting(of)
	}
	return "race " + of + " of the run · the verdict comes with its last"
}

// soFar is what the board ranks f by before its workload's run has ended,
// as a rate (bigger is better): the figure the verdict compares over the
// run's races so far (the prefill estimate over the sizes raced, the
// conversations finished), else a tool call's or JSON answer's figure
// once judged (Snapshot.Rate); ok false without one (then TTFT ranks).
func soFar(f live.Snapshot) (rate float64, ok bool) {
	if w := f.Workload; w != nil {
		for _, fig := range w.Figures() {
			if r := fig.Of(w.WorkloadRuns); fig.Decides && r.OK && r.Value > 0 {
				if fig.Better == metrics.LowerIsBetter {
					return 1 / r.Value, true
				}
				return r.Value, true
			}
		}
	}
	if f.HasRate && !math.IsNaN(f.Rate) {
		return f.Rate, true
	}
	return 0, false
}
