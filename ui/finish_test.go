package ui

import (
	"slices"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/ui/leaderboard"
)

// --finish-at 40 in the dashboard: the leaderboard ranks by the time to 40
// tokens (a quick starter beats a fast streamer over a short distance), and
// an answer shorter than 40 ranks after them and is named in the verdict,
// which is bench's for the same figure.
func TestFinishAtRanksTheLeaderboard(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 60, "sim:ttft=20ms,tps=200,tokens=60", "sim:ttft=400ms,tps=2000,tokens=60", "sim:ttft=10ms,tps=3000,tokens=20")
	tm := startProgram(t, Options{Config: cfg, FinishAt: 40})
	waitFor(t, tm, "finished in")
	m := quit(t, tm)
	figs := m.figures()
	if got, want := leaderboard.Order(figs), []int{0, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v (by time to 40 tokens, the short answer last)", got, want)
	}
	verdict := leaderboard.Verdict([]string{"p1", "p2", "p3"}, figs)
	if !strings.HasPrefix(verdict, "p1 is ") || !strings.Contains(verdict, " faster than p2 to 40 tokens (") ||
		!strings.Contains(verdict, " · stopped short of 40 tokens: p3") { // the referee's flags may follow (a busy machine: saturated client)
		t.Errorf("verdict %q", verdict)
	}
}
