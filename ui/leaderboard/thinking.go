package leaderboard

import (
	"math"
	"slices"
	"time"

	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// byAnswer is figs with a race of reasoning models ranked by time to
// answer, as bench ranks it: once every provider has settled, metrics.ByAnswer's
// rule over what their runs say of it; then each one's Metric is
// metrics.AnswerMetric and its Rate metrics.Summary.Rate's, 1 ÷ its TTFA.
// Otherwise figs as they are.
func byAnswer(figs []live.Snapshot) []live.Snapshot {
	// Checked before the runs are made: the board asks every frame of a race
	// (a Summary is 1 kB), and the answer is no until every provider settles.
	if slices.ContainsFunc(figs, func(f live.Snapshot) bool { return !f.Settled || f.Metric != "" || isWorkload(f) }) {
		return figs
	}
	runs := make([]metrics.Summary, len(figs))
	for i, f := range figs {
		runs[i] = metrics.Summary{Completed: f.Streams - f.Failed, FinishAt: f.FinishAt, RunPhases: f.Thinking}
		if f.HasTTFA {
			runs[i].TTFA = metrics.Dist[time.Duration]{P50: f.TTFA, N: 1}
		}
	}
	if !metrics.ByAnswer(runs) {
		return figs
	}
	out := slices.Clone(figs)
	for i := range out {
		rate := runs[i].Rate()
		out[i].Metric, out[i].Rate, out[i].HasRate = metrics.AnswerMetric, rate, !math.IsNaN(rate)
	}
	return out
}
