package metrics

import (
	"cmp"
	"time"

	"tpsrace/workload"
)

// WorkloadRuns is one provider's figures over the races of a workload, in
// the order they were raced: one race per step of workload.Steps, run after
// run (a long-context run is one race per size, a cached-prefix run a cold
// race then a warm one, a multi-turn run one race per turn; the other
// workloads' runs are one race). It is the one aggregation of a workload's
// races: bench (and so replay --bench and watch) reads it over every run,
// the dashboard over the races of its current run, so both rank and show
// the same figures.
type WorkloadRuns struct {
	// All is every stream pooled: the summary's figures.
	All Summary
	// Ranked is what Order ranks and the verdict names: All under the
	// workload's own figure. Long-context: All with PrefillTPS the median
	// of the runs' estimates, the figure the verdict compares: every
	// stream pooled fits one line through runs that a busy moment may have
	// shifted apart, and an estimate withheld as noisy there ranked last a
	// provider that led every run (the verdict then read "p2 is faster
	// than p1 in 0/2 runs"). Cached-prefix: the warm requests
	// pooled, Warm set. Multi-turn: All with Turns, the turns of a run,
	// and Conversation, the median over the runs whose every turn
	// completed (HasConversation false before one has).
	Ranked Summary
	// Runs are the verdict's units, one per run, the last maybe partial:
	// the race itself (chat, tool-call, json); the sweep over its sizes
	// (long-context, with its PrefillTPS); the warm race (cached-prefix,
	// Warm set; a run whose warm race has not come yet is none); the
	// conversation (multi-turn: Turns so far and ConversationTime over them).
	Runs []Summary
	// Races are each race's own Run, in order: one size, one cold or warm
	// request, one turn.
	Races []Summary
	// BySize is long-context's TTFT per input size, over every race; nil
	// under the other workloads.
	BySize []SizeTTFT
	// PrefixCache is cached-prefix's cold against warm (the even races are
	// cold, the odd ones warm); HasPrefixCache false under the other workloads.
	PrefixCache    PrefixCache
	HasPrefixCache bool
	// Conversations are multi-turn's times of the runs whose every turn
	// completed (ConversationTime).
	Conversations []time.Duration
	// ByTurn is multi-turn's figures per turn (the first, the second, …):
	// the streams of that turn of every run pooled; nil under the other
	// workloads.
	ByTurn []Summary
}

// WorkloadRunsOf is the figures of one provider's races under w: races
// holds, per race in the order raced, the provider's streams in it (none
// for a race it was not in); finishAt is --finish-at's N (0: none).
func WorkloadRunsOf(w workload.Workload, races [][]Stream, finishAt int) WorkloadRuns {
	perRun := len(w.Steps())
	cachedPrefix, multiTurn := w.Is(workload.CachedPrefix), w.Is(workload.MultiTurn)
	var wr WorkloadRuns
	var all, run, cold, warm []Stream
	var turns []Summary
	var byTurn [][]Stream
	if multiTurn {
		byTurn = make([][]Stream, min(perRun, len(races)))
	}
	for k, streams := range races {
		all, run = append(all, streams...), append(run, streams...)
		if multiTurn {
			byTurn[k%perRun] = append(byTurn[k%perRun], streams...)
		}
		race := SummaryOf(streams, finishAt)
		wr.Races, turns = append(wr.Races, race), append(turns, race)
		if cachedPrefix && k%perRun == 0 {
			cold = append(cold, streams...)
		} else if cachedPrefix {
			warm = append(warm, streams...)
			race.Warm = true
			wr.Runs = append(wr.Runs, race)
		}
		if cachedPrefix || ((k+1)%perRun != 0 && k != len(races)-1) {
			continue
		}
		r := SummaryOf(run, finishAt)
		if multiTurn { // the conversation: its turns' times added up
			r.Turns = len(turns)
			r.Conversation, r.HasConversation = ConversationTime(turns)
			if r.HasConversation && len(turns) == perRun {
				wr.Conversations = append(wr.Conversations, r.Conversation)
			}
		}
		wr.Runs, run, turns = append(wr.Runs, r), nil, nil
	}
	wr.All = SummaryOf(all, finishAt)
	wr.All.Goodput = wr.All.Goodput.withPerSecond(raceTime(wr.Races))
	wr.Ranked = wr.All
	switch {
	case w.Is(workload.LongContext): // ranked on the median of the runs' estimates
		wr.BySize = TTFTBySize(all)
		wr.Ranked.PrefillTPS, wr.Ranked.NoPrefill = medianPrefill(wr.Runs, wr.All.NoPrefill)
		wr.Ranked.HasPrefillTPS = wr.Ranked.NoPrefill == ""
	case multiTurn: // ranked on the median conversation
		for _, streams := range byTurn {
			wr.ByTurn = append(wr.ByTurn, SummaryOf(streams, finishAt))
		}
		wr.Ranked.Turns = perRun
		wr.Ranked.Conversation, wr.Ranked.HasConversation = Median(wr.Conversations)
	case cachedPrefix: // ranked on the warm requests
		wr.Ranked = SummaryOf(warm, finishAt)
		wr.Ranked.Warm = true
		wr.PrefixCache, wr.HasPrefixCache = PrefixCacheOf(cold, warm), true
	}
	return wr
}

// raceTime is the races' time added up (each one's release to its last
// stream's end) and the most streams a provider had in one: its concurrency.
func raceTime(races []Summary) (time.Duration, int) {
	var total time.Duration
	most := 0
	for _, r := range races {
		total += r.End
		most = max(most, r.Streams)
	}
	return total, most
}

// medianPrefill is the median of runs' prefill estimates, over the runs
// that have one; without any, none, for the last run's reason (pooled's,
// All's, before a run has ended).
func medianPrefill(runs []Summary, pooled NoPrefill) (float64, NoPrefill) {
	var estimates []float64
	for _, r := range runs {
		if r.HasPrefillTPS {
			estimates = append(estimates, r.PrefillTPS)
		}
	}
	if m, ok := Median(estimates); ok {
		return m, ""
	}
	if len(runs) > 0 {
		pooled = runs[len(runs)-1].NoPrefill
	}
	return 0, cmp.Or(pooled, PrefillNoTTFT)
}
