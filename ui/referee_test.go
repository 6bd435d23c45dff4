package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
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
	// A busy test machine may add "p1 raced on a saturated client in 1/1
	// runs; " (or "saturated client in 1/1 runs, ") before it: a true flag of
	// that run, which a 160-column screen leaves room for.
	const flagged = "p1 had cached prompts in 1/1 runs"
	flagLine := func(m Model) {
		t.Helper()
		for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
			if strings.Contains(l, flagged) && !strings.HasPrefix(l, "⚑ ") {
				t.Errorf("the flags' line does not start with ⚑: %q", l)
			}
		}
	}
	start := func(opts Options) *teatest.TestModel {
		return teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(160, 48))
	}
	tm := start(Options{Config: cfg})
	waitFor(t, tm, flagged)
	m := quit(t, tm)
	flagLine(m)

	tm = start(Options{Config: cfg, Replay: &Replay{Results: lastRace(t, m), RecordedAt: time.Now()}})
	waitFor(t, tm, flagged)
	flagLine(quit(t, tm))
}

// A planned 600 ms pause shows in the leaderboard's feel column on a
// 160×48 projector, where the leaderboard is 96 columns wide beside the
// chart: the stall outranks tokens and words/s (leaderboard.fitColumns).
// The feel on the row is checked directly; that it is one stall of about
// the pause is a reading of the wall clock (a late read shortens the
// pause's gap, a hiccup of a quarter second is a second stall), held with
// testenv.Timed.
func TestStallShowsInTheFeelColumnAt160x48(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 400,
		"sim:ttft=30ms,tps=2000,tokens=200",
		"sim:ttft=30ms,tps=500,tokens=150,pause=600ms@5",
		"sim:ttft=30ms,tps=100,tokens=60",
		"sim:ttft=30ms,tps=300,tokens=100",
	)
	for i, name := range []string{"fast-wafer", "deep-thinker", "laptop", "groq"} { // the goldens' widest names
		cfg.Providers[i].Name = name
	}
	testenv.Timed(t, func(a *testenv.Attempt) {
		tm := teatest.NewTestModel(t, New(Options{Config: cfg}), teatest.WithInitialTermSize(160, 48))
		waitFor(t, tm, "finished in")
		m := quit(t, tm)
		a.Load = saturation(m.s.history)
		var row string
		for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
			if strings.Contains(l, "deep-thinker") && strings.Contains(l, "stall") {
				row = l
			}
		}
		feel := m.figures()[1].Feel
		if row == "" || !strings.Contains(row, feel) {
			t.Fatalf("deep-thinker's feel %q not on its leaderboard row:\n%s", feel, m.View())
		}
		if !strings.HasPrefix(feel, "1 stall · ") {
			a.Missf("deep-thinker's feel %q, want the planned pause as its one stall", feel)
			return
		}
		if stall, err := time.ParseDuration(strings.TrimPrefix(feel, "1 stall · ")); err != nil || stall < 500*time.Millisecond || stall > 2*time.Second {
			a.Missf("the planned 600ms pause measured as %q (%v)", feel, err)
		}
	})
}

// A replay referees its race over the recording's races before it, as the
// live dashboard did: a fingerprint that changed since the race before
// flags the replayed race, which alone looks clean.
func TestReplayRefereesOverTheRacesBefore(t *testing.T) {
	noLeaks(t)
	cfg, _, results := recordedRace()
	served := func(fingerprint string) [][]probes.Result { return servedBy(results, fingerprint) }
	for _, before := range [][][][]probes.Result{nil, {served("fp_a")}} {
		tm := startProgram(t, Options{Config: cfg, Replay: &Replay{Results: served("fp_b"), Before: before, RecordedAt: time.Now()}})
		waitFor(t, tm, "faster than")
		m := quit(t, tm)
		flags := metrics.FlagsOfText(m.figures()[0].Flags)
		if _, changed := flags[metrics.FlagModelSubstituted]; changed != (before != nil) {
			t.Errorf("%d races before: flags %v; want model_substituted only after fp_a", len(before), flags)
		}
	}
}
