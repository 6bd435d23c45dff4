package leaderboard

import (
	"slices"
	"testing"
	"time"

	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// A race of reasoning models is ranked and decided on time to answer, as
// bench decides it; a race with a model that does not think on speed.
func TestReasoningRaceRanksByTimeToAnswer(t *testing.T) {
	thinker := func(ttfa time.Duration, speed float64) live.Snapshot {
		return live.Snapshot{Status: live.Done, Settled: true, Streams: 1, HasSpeed: true, Speed: speed, TTFA: ttfa, HasTTFA: true,
			Thinking: metrics.RunPhases{Reasoned: 1, HiddenReasoningTokens: 100, ThinkingTokens: 100}}
	}
	names := []string{"ponder", "quick"}
	figs := []live.Snapshot{thinker(2*time.Second, 200), thinker(time.Second, 100)}
	if got, want := Verdict(names, figs), "quick is 2.0× faster than ponder to the answer (1.00s vs 2.00s)"; got != want {
		t.Errorf("Verdict = %q, want %q", got, want)
	}
	if got := Order(figs); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("Order = %v, want quick first", got)
	}
	figs[1].Thinking = metrics.RunPhases{}
	if got := Order(figs); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("with a model that does not think, Order = %v, want the faster stream first", got)
	}
}
