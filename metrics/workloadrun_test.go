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
