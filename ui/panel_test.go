package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
	"tpsrace/workload"
)

// workloadStates are the workload panel's states for TestNoFigureIsCut:
// recordedRace raced as each step of a run, every step finished.
var workloadStates = []struct {
	name  string
	build func(w, h int) Model
}{
	{"long-context sweep", func(w, h int) Model {
		return racedSteps(workload.LongContext, w, h, func(step int, r *probes.Result) {
			r.InputTokens = []int{1000, 8000, 32000}[step]
			if r.Usage != nil {
				r.Usage.PromptTokens = r.InputTokens + 3
			}
		}, 1, 2.5, 7)
	}},
	{"cached-prefix warm", func(w, h int) Model {
		return racedSteps(workload.CachedPrefix, w, h, func(step int, r *probes.Result) {
			r.InputTokens = workload.DefaultPrefixTokens
			if r.Usage != nil && step == 1 && r.Provider == "fast-wafer" {
				cached := workload.DefaultPrefixTokens - 16
				r.Usage.CachedPromptTokens = &cached
			}
		}, 1, 0.35)
	}},
	{"multi-turn turn 3", func(w, h int) Model {
		return racedSteps(workload.MultiTurn, w, h, func(step int, r *probes.Result) {
			if r.Usage != nil {
				r.Usage.PromptTokens = 12 + 410*step
			}
		}, 1, 1.2, 1.4)
	}},
}

// racedSteps is the dashboard at w × h under workload name, recordedRace
// raced as each of its run's steps, slowed by the factor of each (one a
// step), each result set for its step by set.
func racedSteps(name string, w, h int, set func(step int, r *probes.Result), factors ...float64) Model {
	cfg, _, results := recordedRace()
	cfg = withWorkload(cfg, name, nil)
	m := update(New(Options{Config: cfg}), tea.WindowSizeMsg{Width: w, Height: h})
	for step, f := range factors {
		raced := scaledRace(results, f)
		for i := range raced {
			for k := range raced[i] {
				set(step, &raced[i][k])
			}
		}
		m.s.begin(0, m.c.clients) // the race as release() puts it on screen, without sending it
		m.newPanes()
		m.relayout()
		m = playTo(m, updatesOf(raced), time.Hour)
		m = update(m, raceDoneMsg{race: m.s.id, results: raced})
	}
	return m
}

// runSteps races every step of cfg's workload run in the real program,
// each starting once the one before has finished (afterStep), until the last, whose title is last (the
// workload panel's step); it returns the final model.
func runSteps(t *testing.T, cfg *config.Config, next ...string) Model {
	t.Helper()
	tm := startProgram(t, Options{Config: cfg})
	waitFor(t, tm, "finished in")
	for _, step := range next { // a run's steps race back to back (afterStep)
		waitFor(t, tm, step) // the panel's title: the next step is on screen
		waitFor(t, tm, "finished in")
	}
	return quit(t, tm)
}

// withWorkload is cfg racing workload name, its settings set by set.
func withWorkload(cfg *config.Config, name string, set func(w *workload.Workload)) *config.Config {
	cfg.Workload, _ = workload.Named(name)
	if set != nil {
		set(&cfg.Workload)
	}
	return cfg
}

// screenLine is the line of the screen that holds all of parts, "" for none.
func screenLine(screen string, parts ...string) string {
	for _, l := range strings.Split(screen, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return l
		}
	}
	return ""
}

// A long-context sweep against servers of known prefill rates: after the
// last size the panel shows each provider's TTFT at each size and the
// prefill estimate, metrics' figure. The estimate is near the server's
// rate (within 10% here, where a loaded machine's delays weigh on a
// sweep of one race per size; cli's bench test holds it to 5%): a figure
// of the wall clock, held with testenv.Timed (seen 10% off at load 6).
// What the panel shows of the figures it has is checked directly.
func TestPanelShowsTheLongContextSweep(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := withWorkload(simConfig(srv, "Say hi.", 20, "sim:ttft=10ms,tps=2000,prefill=20000", "sim:ttft=10ms,tps=2000,prefill=5000"),
		workload.LongContext, func(w *workload.Workload) { w.InputTokens = []int{1000, 4000, 8000} })
	testenv.Timed(t, func(a *testenv.Attempt) {
		m := runSteps(t, cfg, "size 2/3", "size 3/3")
		a.Load = saturation(m.s.history)
		screen := m.View()
		for i, want := range []float64{20000, 5000} {
			run := m.figures()[i].Workload
			if run == nil || !run.All.HasPrefillTPS {
				a.Missf("provider %d: no prefill estimate %+v, want one within 10%% of %v", i, run, want)
				continue
			}
			a.Within("p"+itoa(i+1)+"'s prefill estimate", run.All.PrefillTPS, want, 0.1, "tok/s")
			line := screenLine(screen, "p"+itoa(i+1)+" ", "≈ "+format.TPS(run.All.PrefillTPS)+" tok/s")
			for _, size := range run.BySize {
				if !strings.Contains(line, format.Duration(size.TTFT.P50)) {
					t.Errorf("p%d's panel line lacks its TTFT at %d tokens (%s): %q", i+1, size.InputTokens, format.Duration(size.TTFT.P50), line)
				}
			}
			if line == "" || len(run.BySize) != 3 {
				t.Errorf("p%d: %d sizes, its prefill estimate not on screen:\n%s", i+1, len(run.BySize), screen)
			}
		}
		if !strings.Contains(screen, "long-context · size 3/3 · 8,000 tokens") || !strings.Contains(screen, "8.0k") {
			t.Errorf("no panel title or size axis:\n%s", screen)
		}
	})
}

// saturation is the client's own evidence that it was loaded during races
// (metrics.Saturation of the first stream that shows it), for
// testenv.Attempt.Load; "" for none.
func saturation(races [][][]probes.Result) string {
	for _, race := range races {
		for _, streams := range race {
			for _, r := range streams {
				if e := metrics.Saturation(r.Load); e != "" {
					return e
				}
			}
		}
	}
	return ""
}

// Cached-prefix against a server with a prefix cache and one without: the
// warm race's cached tokens as the server reported them, "none reported"
// for the other, cold and warm TTFT side by side.
func TestPanelShowsColdAgainstWarm(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := withWorkload(simConfig(srv, "Say hi.", 20, "sim:ttft=10ms,tps=2000,prefill=20000,prefixcache=1", "sim:ttft=10ms,tps=2000,prefill=20000"),
		workload.CachedPrefix, func(w *workload.Workload) { w.InputTokens = []int{4000} })
	m := runSteps(t, cfg, "warm race 2/2")
	screen := m.View()
	cached := m.figures()[0].Workload.PrefixCache
	if !cached.Cached.Has() || cached.Cached.P50 < 4000 || !cached.HasSaving || cached.Saving < 0.5 {
		t.Fatalf("the cached provider's figures %+v, want its whole prompt cached and its warm TTFT far lower", cached)
	}
	if line := screenLine(screen, "p1 ", format.Duration(cached.Cold.P50), format.Duration(cached.Warm.P50), itoa(int(cached.Cached.P50))+" tok"); line == "" {
		t.Errorf("no panel line with p1's cold and warm TTFT and cached tokens:\n%s", screen)
	}
	if line := screenLine(screen, "p2 ", "none reported"); line == "" {
		t.Errorf("p2 reported no cached tokens, its panel line does not say so:\n%s", screen)
	}
}

// A three-turn conversation: the turn on screen, each turn's TTFT and
// input tokens (growing: each carries the turns before) and the
// conversation time so far.
func TestPanelShowsTheTurns(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := withWorkload(simConfig(srv, "Say hi.", 20, "sim:ttft=10ms,tps=2000", "sim:ttft=40ms,tps=500"), workload.MultiTurn, nil)
	m := runSteps(t, cfg, "turn 2/3", "turn 3/3")
	screen := m.View()
	run := m.figures()[1].Workload
	if len(run.Races) != 3 || !run.Runs[len(run.Runs)-1].HasConversation {
		t.Fatalf("p2: %d turns, conversation %+v", len(run.Races), run.Runs)
	}
	parts := []string{"p2 ", format.Duration(run.Runs[len(run.Runs)-1].Conversation)}
	for k, turn := range run.Races {
		parts = append(parts, format.Duration(turn.TTFT.P50), itoa(int(turn.PromptTokens.P50)))
		if k > 0 && turn.PromptTokens.P50 <= run.Races[k-1].PromptTokens.P50 {
			t.Errorf("turn %d's input is %v tokens, turn %d's %v: want it to grow", k+1, turn.PromptTokens.P50, k, run.Races[k-1].PromptTokens.P50)
		}
	}
	if screenLine(screen, "multi-turn · turn 3/3") == "" || screenLine(screen, "turn 1 TTFT", "turn 3 TTFT", "conversation") == "" || screenLine(screen, parts...) == "" {
		t.Errorf("want the turn, each turn's TTFT and the conversation time %v:\n%s", parts, screen)
	}
}
