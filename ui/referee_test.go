package ui

import (
	"testing"
	"time"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// The referee's flags on the verdict show where the verdict shows: live,
// under the leaderboard's verdict line, and in the replay of the race,
// which renders the same. The real program against a simulator that says
// it served p1's prompt from its cache.
func TestVerdictSaysTheRefereesFlags(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Explain how a CPU cache works in three paragraphs.", 400,
		"sim:ttft=30ms,tps=2000,tokens=60,cached=5",
		"sim:ttft=30ms,tps=500,tokens=60",
	)
	const flagged = "⚑ p1 had cached prompts in 1/1 runs"
	tm := startProgram(t, Options{Config: cfg})
	waitFor(t, tm, flagged)
	m := quit(t, tm)

	tm = startProgram(t, Options{Config: cfg, Replay: &Replay{Results: lastRace(t, m), RecordedAt: time.Now()}})
	waitFor(t, tm, flagged)
	quit(t, tm)
}
