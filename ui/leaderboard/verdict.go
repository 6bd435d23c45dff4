package leaderboard

import (
	"math"
	"strconv"
	"time"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/ui/live"
)

// Verdict is the one-line summary once every provider has settled ("" before):
// metrics.Decide over this one race, the leaderboard's order deciding who
// is the winner and who the runner-up (the same rule and text as bench),
// then the referee's flags on the two ("⚑ sim-lpu had cached prompts in
// 1/1 runs": bench's "Referee:" line), last.
func Verdict(names []string, figs []live.Snapshot) string {
	verdict, flagged := verdictParts(names, figs)
	if flagged != "" {
		return verdict + " · ⚑ " + flagged
	}
	return verdict
}

// verdictParts are Verdict's sentence and the referee's flags on it
// (metrics.Verdict.FlaggedText), apart: the leaderboard gives the flags a
// line of their own when it has one to spare.
// A race a broken recording cut has no verdict, as replay --bench leaves it out:
// a lost stream might have won.
func verdictParts(names []string, figs []live.Snapshot) (verdict, flagged string) {
	figs = byAnswer(figs)
	failed, stopped, lost := 0, 0, 0
	for _, f := range figs {
		switch {
		case !f.Settled:
			return "", ""
		case f.Lost > 0:
			lost += f.Lost
		case stoppedOnly(f):
			stopped++
		case f.Status == live.Failed:
			failed++
		}
	}
	if lost > 0 {
		return "no verdict: the race is incomplete (" + strconv.Itoa(lost) + " lost)", ""
	}
	if next := nextStep(figs); next != "" {
		return next, ""
	}
	var ranked []metrics.Contender
	finishAt := 0
	for _, i := range Order(figs) {
		f, speed := figs[i], math.NaN()
		finishAt = f.FinishAt
		switch { // a workload's own figure before the finish line, as metrics.Summary.Metric
		case f.Status == live.Failed:
		case f.Metric != "" && f.HasRate:
			speed = f.Rate
		case f.Metric != "": // no valid call or JSON: no rate
		case finishAt > 0 && f.HasTimeToN:
			speed = float64(finishAt) / f.TimeToN.Seconds() // bigger is better, as metrics.Contender wants
		case finishAt == 0 && f.HasSpeed:
			speed = f.Speed
		}
		flags, load := metrics.FlagsOfText(f.Flags), f.Load
		if f.Workload != nil && f.Workload.Settled() { // every race of the run, as bench flags it
			flags, load = f.Workload.Flags, f.Workload.Load
		}
		ranked = append(ranked, metrics.Contender{Name: names[i], Metric: f.Metric, Speeds: []float64{speed}, RateLimited: []bool{f.RateLimited},
			TTFT: []time.Duration{f.TTFT}, Total: []time.Duration{f.E2E}, Flags: []metrics.Flags{flags}, Load: []*probes.ClientLoad{load}})
	}
	v := metrics.Decide(ranked, finishAt)
	s := v.Text() + stoppedShort(names, figs)
	if failed > 0 {
		s += " · " + strconv.Itoa(failed) + " failed"
	}
	if stopped > 0 {
		s += " · " + strconv.Itoa(stopped) + " stopped"
	}
	return s, v.FlaggedText()
}

// stoppedOnly is whether f completed no stream and its first failure is
// the stop (q, ctrl+c, SIGTERM; the replay of an interrupted race): it was
// not let finish, which is not a failure of the provider.
func stoppedOnly(f live.Snapshot) bool {
	return f.Status == live.Failed && probes.KindOf(f.Err) == probes.KindCancelled
}
