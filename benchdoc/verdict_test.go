package benchdoc_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// raceRuns races the simulator once per run; models(run) gives each named
// provider's simulated model for that run, so each run can have its own
// speed. finishAt is --finish-at's N.
func raceRuns(t *testing.T, runs int, names []string, models func(run int) []string, finishAt int) *benchdoc.Bench {
	t.Helper()
	return benchdoc.Build(raceInput(t, runs, names, models, finishAt))
}

// raceInput is raceRuns' races, before Build.
func raceInput(t *testing.T, runs int, names []string, models func(run int) []string, finishAt int) benchdoc.Input {
	t.Helper()
	srv := simtest.Start(t, sim.Options{})
	config := func(run int) *config.Config {
		cfg := &config.Config{Prompt: "Explain caches.", MaxTokens: 40}
		for i, m := range models(run) {
			cfg.Providers = append(cfg.Providers, config.Provider{Name: names[i], Kind: config.KindOpenAI, BaseURL: srv.URL(), Model: m, Timeout: config.DefaultTimeouts})
		}
		return cfg
	}
	in := benchdoc.Input{Config: config(0), Concurrency: 1, FinishAt: finishAt}
	clients := &probes.Clients{}
	defer clients.Close()
	for run := range runs {
		cfg := config(run)
		race := probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}, Clients: clients}
		in.Races = append(in.Races, race.Run(context.Background(), nil))
	}
	return in
}

// spread draws runs speeds around mean, uniformly within ±spread (a fraction), seeded.
func spread(seed uint64, runs int, mean, frac float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	v := make([]float64, runs)
	for i := range v {
		v[i] = math.Round(mean * (1 + frac*(2*rng.Float64()-1)))
	}
	return v
}

func models(speeds ...[]float64) func(run int) []string {
	return func(run int) []string {
		var m []string
		for _, s := range speeds {
			m = append(m, fmt.Sprintf("sim:ttft=20ms,tokens=40,tps=%g", s[run]))
		}
		return m
	}
}

// designed is the verdict over the speeds the simulator was told to stream at.
func designed(alpha, bravo []float64) metrics.Verdict {
	return metrics.Decide([]metrics.Contender{{Name: "alpha", Speeds: alpha}, {Name: "bravo", Speeds: bravo}}, 0)
}

// Every figure of this verdict is a speed on the wall clock, and a loaded
// client flags its runs client_saturated, which keeps any verdict from
// confident: testenv.Timed.
func TestVerdictOfAClearWinner(t *testing.T) {
	alpha, bravo := spread(1, 5, 300, 0.15), spread(2, 5, 100, 0.15)
	want := designed(alpha, bravo)
	testenv.Timed(t, func(a *testenv.Attempt) {
		b := raceRuns(t, 5, []string{"alpha", "bravo"}, models(alpha, bravo), 0)
		a.Load = saturation(b)
		v := b.Verdict
		if v.Winner == nil || *v.Winner != "alpha" || v.RunnerUp == nil || *v.RunnerUp != "bravo" || v.Runs != 5 || v.Wins != 5 || !v.Confident {
			a.Missf("verdict %+v, want alpha confidently ahead of bravo in 5/5 runs", v)
			return
		}
		if v.CI95 == nil || v.Ratio == nil || !(v.CI95[0] <= *v.Ratio && *v.Ratio <= v.CI95[1]) {
			t.Fatalf("ratio %v outside its interval %v", v.Ratio, v.CI95)
		}
		// The measured interval holds the designed ratio, and the designed
		// interval the measured ratio (a busy machine adds a few % to each run).
		if want.Ratio < v.CI95[0] || want.Ratio > v.CI95[1] || *v.Ratio < want.CI95[0] || *v.Ratio > want.CI95[1] {
			a.Missf("measured ratio %.3f CI %v, designed %.3f CI %v", *v.Ratio, *v.CI95, want.Ratio, want.CI95)
		}
		if prefix := "alpha is faster than bravo in 5/5 runs; output speed ratio "; !strings.HasPrefix(v.Text, prefix) || !strings.Contains(v.Text, "× (95% CI ") || !strings.Contains(v.Text, ", bootstrap)") { // then the referee's flags, if any
			t.Errorf("text %q, want it to start %q", v.Text, prefix)
		}
	})
}

func TestVerdictTooCloseToCall(t *testing.T) {
	alpha, bravo := spread(3, 5, 300, 0.10), spread(4, 5, 300, 0.10)
	if d := designed(alpha, bravo); d.Confident || !d.HasCI || d.CI95[0] > 1 || d.CI95[1] < 1 {
		t.Fatalf("the designed speeds %v and %v are not a close call: %+v", alpha, bravo, d)
	}
	v := raceRuns(t, 5, []string{"alpha", "bravo"}, models(alpha, bravo), 0).Verdict
	if v.Confident || v.CI95 == nil || v.CI95[0] > 1 || v.CI95[1] < 1 || v.Runs != 5 {
		t.Fatalf("verdict %+v, want an interval that includes 1 over 5 runs", v)
	}
	if !strings.HasPrefix(v.Text, "too close to call: ") {
		t.Errorf("text %q, want it to say too close to call", v.Text)
	}
}

// A bench stopped before its last run gives no confident verdict, however
// clear the runs it finished: its text says where it stopped.
func TestVerdictOfAnInterruptedBench(t *testing.T) {
	alpha, bravo := spread(1, 3, 300, 0.15), spread(2, 3, 100, 0.15)
	in := raceInput(t, 3, []string{"alpha", "bravo"}, models(alpha, bravo), 0)
	if v := benchdoc.Build(in).Verdict; !v.Confident {
		t.Fatalf("the 3 runs raced give no confident verdict to interrupt: %q", v.Text)
	}
	in.Interrupted, in.Planned = true, 20
	v := benchdoc.Build(in).Verdict
	if want := "interrupted after 3/20 runs: alpha is faster than bravo in 3/3 runs; output speed ratio "; v.Confident || !strings.HasPrefix(v.Text, want) || strings.Contains(v.Text, "not confident") {
		t.Errorf("interrupted between runs: confident %v, text %q; want not confident, the text starting %q", v.Confident, v.Text, want)
	}

	// A fourth run stopped mid-answer: the stop fell in it.
	cfg := *in.Config
	cfg.Providers = slices.Clone(cfg.Providers)
	for i := range cfg.Providers {
		cfg.Providers[i].Model = "sim:ttft=20ms,tokens=40,tps=20" // 2s of answer
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	clients := &probes.Clients{}
	defer clients.Close()
	race := probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}, Clients: clients}
	in.Races = append(in.Races, race.Run(ctx, nil))
	v = benchdoc.Build(in).Verdict
	if want := "interrupted in run 4/20: alpha is faster than bravo in 3/3 runs"; v.Confident || !strings.HasPrefix(v.Text, want) {
		t.Errorf("interrupted in a run: confident %v, text %q; want not confident, the text starting %q", v.Confident, v.Text, want)
	}
}

// A cold first run and a rate-limited run are named, not averaged in silently.
func TestVerdictFlagsColdAndRateLimitedRuns(t *testing.T) {
	b := raceRuns(t, 3, []string{"alpha", "bravo"}, func(run int) []string {
		alpha, bravo := "sim:ttft=20ms,tokens=40,tps=900", "sim:ttft=20ms,tokens=40,tps=300"
		if run == 0 {
			alpha = "sim:ttft=400ms,tokens=40,tps=900"
		}
		if run == 1 {
			bravo = "sim:fault=429"
		}
		return []string{alpha, bravo}
	}, 0)
	v := b.Verdict
	if !reflect.DeepEqual(v.ColdFirstRun, []string{"alpha"}) || !reflect.DeepEqual(v.RateLimited, map[string][]int{"bravo": {1}}) {
		t.Fatalf("cold %v, rate-limited %v: want alpha cold, bravo limited in run 1", v.ColdFirstRun, v.RateLimited)
	}
	if v.Runs != 2 || v.CI95 != nil {
		t.Errorf("runs %d, ci %v: the rate-limited run pairs with nothing, and 2 runs give no interval", v.Runs, v.CI95)
	}
	for _, want := range []string{"alpha is faster than bravo in 2/2 runs", "too few for a confidence interval", "cold first run: alpha", "rate-limited (429): bravo in 1 run"} {
		if !strings.Contains(v.Text, want) {
			t.Errorf("text %q lacks %q", v.Text, want)
		}
	}
}
