package metrics

import (
	"testing"
	"time"

	"tpsrace/workload"
)

// A multi-turn provider's figures per turn pool that turn's streams of
// every conversation: two conversations of three turns, each turn's TTFT,
// speed and prompt size known; a failed stream gives its TTFT but no speed.
func TestByTurnPoolsEachTurnOverTheConversations(t *testing.T) {
	w, _ := workload.Named(workload.MultiTurn)
	turn := func(ttft time.Duration, speed float64, prompt int, completed bool) []Stream {
		return []Stream{{Figures: Figures{TTFT: ttft, HasTTFT: true, OutputTPS: speed, HasOutputTPS: true, E2E: ttft + 100*ms,
			Completed: completed, PromptTokens: prompt, HasPromptTokens: prompt > 0}}}
	}
	races := [][]Stream{
		turn(100*ms, 50, 10, true), turn(200*ms, 40, 40, true), turn(300*ms, 30, 70, true),
		turn(120*ms, 70, 10, true), turn(220*ms, 60, 44, false), turn(320*ms, 50, 0, true),
	}
	wr := WorkloadRunsOf(w, races, 0)
	if len(wr.ByTurn) != 3 {
		t.Fatalf("%d turns, want 3", len(wr.ByTurn))
	}
	for i, want := range []struct {
		ttft   time.Duration
		speed  float64
		speeds int
		prompt float64
		n      int
	}{{110 * ms, 60, 2, 10, 2}, {210 * ms, 40, 1, 42, 2}, {310 * ms, 40, 2, 70, 1}} {
		got := wr.ByTurn[i]
		if got.TTFT.P50 != want.ttft || got.Speed.P50 != want.speed || got.Speed.N != want.speeds || got.PromptTokens.P50 != want.prompt || got.PromptTokens.N != want.n {
			t.Errorf("turn %d: TTFT %v speed %v (of %d) prompt %v (of %d), want %+v", i+1, got.TTFT.P50, got.Speed.P50, got.Speed.N, got.PromptTokens.P50, got.PromptTokens.N, want)
		}
	}
	if chat := WorkloadRunsOf(workload.Workload{}, races, 0); chat.ByTurn != nil {
		t.Errorf("chat has turns: %+v", chat.ByTurn)
	}
	// A conversation still in its first turn has one turn so far.
	if partial := WorkloadRunsOf(w, races[:1], 0); len(partial.ByTurn) != 1 {
		t.Errorf("one race: %d turns", len(partial.ByTurn))
	}
}

// A run still under way (the dashboard's, a stopped bench's) is what has
// been raced: a long-context sweep's sizes so far are a run, with no
// estimate before two; a cached-prefix run without its warm race is none
// (nothing to rank); a conversation's turns so far add up, and only a
// whole one counts towards the ranked median.
func TestWorkloadRunsOfARunUnderWay(t *testing.T) {
	sized := func(input int, ttft time.Duration) []Stream {
		return []Stream{{Figures: Figures{TTFT: ttft, HasTTFT: true, E2E: ttft + 100*ms, Completed: true}, InputTokens: input}}
	}
	long, _ := workload.Named(workload.LongContext) // 3 sizes
	one := WorkloadRunsOf(long, [][]Stream{sized(1000, 100*ms)}, 0)
	if len(one.Runs) != 1 || one.Ranked.HasPrefillTPS || len(one.BySize) != 1 {
		t.Errorf("one size: %d runs, estimate %v, %d sizes; want 1, none, 1", len(one.Runs), one.Ranked.HasPrefillTPS, len(one.BySize))
	}
	two := WorkloadRunsOf(long, [][]Stream{sized(1000, 100*ms), sized(9000, 500*ms)}, 0)
	if len(two.Runs) != 1 || !two.Ranked.HasPrefillTPS || two.Ranked.PrefillTPS != 20000 || two.Ranked.Metric() != PrefillMetric {
		t.Errorf("two sizes: %d runs, estimate %v (%v); want 1 run at 20,000 tok/s", len(two.Runs), two.Ranked.PrefillTPS, two.Ranked.HasPrefillTPS)
	}

	cached, _ := workload.Named(workload.CachedPrefix)
	cold := WorkloadRunsOf(cached, [][]Stream{sized(8000, 400*ms)}, 0)
	if len(cold.Runs) != 0 || !cold.PrefixCache.Cold.Has() || cold.PrefixCache.Warm.Has() || cold.PrefixCache.HasSaving || !cold.Ranked.Warm {
		t.Errorf("cold only: %d runs, %+v", len(cold.Runs), cold.PrefixCache)
	}
	warm := WorkloadRunsOf(cached, [][]Stream{sized(8000, 400*ms), sized(8000, 100*ms)}, 0)
	if len(warm.Runs) != 1 || !warm.Runs[0].Warm || warm.PrefixCache.Saving != 0.75 || warm.Ranked.TTFT.P50 != 100*ms {
		t.Errorf("cold and warm: %d runs, saving %v, ranked TTFT %v", len(warm.Runs), warm.PrefixCache.Saving, warm.Ranked.TTFT.P50)
	}

	multi, _ := workload.Named(workload.MultiTurn) // 3 turns
	turns := WorkloadRunsOf(multi, [][]Stream{sized(0, 100*ms), sized(0, 200*ms)}, 0)
	if r := turns.Runs; len(r) != 1 || r[0].Turns != 2 || r[0].Conversation != 500*ms || turns.Ranked.HasConversation || len(turns.Conversations) != 0 {
		t.Errorf("two turns of three: %+v, ranked on a conversation %v", r, turns.Ranked.HasConversation)
	}
}

// A long-context provider ranks on the median of its runs' estimates, the
// figure its verdict compares: two sweeps of 1,000 and 4,000 tokens at
// 20,000 tok/s, the first shifted 50 ms later by a busy moment, each
// estimate exact, while the streams pooled scatter about one line too far
// for an estimate (noisy). Ranked on the pooled streams, this provider,
// ahead in every run, ranked below one with any estimate.
func TestLongContextRanksOnItsRunsEstimates(t *testing.T) {
	long, _ := workload.Named(workload.LongContext)
	long.InputTokens = []int{1000, 4000}
	sized := func(input int, ttft time.Duration) []Stream {
		return []Stream{{Figures: Figures{TTFT: ttft, HasTTFT: true, E2E: ttft + 100*ms, Completed: true}, InputTokens: input}}
	}
	wr := WorkloadRunsOf(long, [][]Stream{sized(1000, 110*ms), sized(4000, 260*ms), sized(1000, 60*ms), sized(4000, 210*ms)}, 0)
	if wr.All.HasPrefillTPS || wr.All.NoPrefill != PrefillNoisy {
		t.Fatalf("pooled: estimate %v (%q); the case wants it withheld as noisy", wr.All.PrefillTPS, wr.All.NoPrefill)
	}
	if len(wr.Runs) != 2 || !wr.Ranked.HasPrefillTPS || wr.Ranked.Rate() != 20000 {
		t.Errorf("ranked on %v (%q) over %d runs; want the runs' 20,000 tok/s", wr.Ranked.Rate(), wr.Ranked.NoPrefill, len(wr.Runs))
	}
}
