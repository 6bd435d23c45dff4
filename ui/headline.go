package ui

import (
	"slices"
	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// headline is the figure presenter mode shows of a provider in big digits,
// and its label: under a workload the figure its verdict compares (its
// description's, over the run's finished races, as every view writes it),
// before it has a value the race on screen's TTFT; output tok/s under
// chat. ok is false while it is undefined (text is then format.Undefined).
func headline(f live.Snapshot) (text, label string, ok bool) {
	w := f.Workload
	if w == nil || len(w.Figures()) == 0 {
		if !f.HasSpeed {
			return format.Undefined, "tok/s", false
		}
		return format.TPS(f.Speed), "tok/s", true
	}
	i := slices.IndexFunc(w.Figures(), func(fig metrics.Figure) bool { return fig.Decides })
	fig := w.Figures()[max(i, 0)]
	if r := fig.Of(w.WorkloadRuns); r.OK {
		return fig.Text(r), fig.Name, true
	}
	label = "TTFT"
	if d := w.Description(); d.StepHeader != "" {
		label += ", " + d.StepHeader + " " + d.Step(w.OnScreen, w.Steps)
	}
	if f.HasTTFT {
		return format.Duration(f.TTFT), label, true
	}
	return format.Undefined, fig.Name, false
}
