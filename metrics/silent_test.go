package metrics_test

import (
	"cmp"
	"context"
	"testing"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// A simulated model that thinks 500 tokens silently at 500 tok/s, then
// streams 1,000 answer tokens at the same rate, over loopback: the answer
// and output speeds read the rate within 3% (not the 1,500 reported tokens
// over the visible window), the hidden tokens are usage's exactly, and the
// thinking speed, whose window opens at release and so holds the request's
// own round trip, reads the rate within 5%. Raced beside it, the same model
// whose usage leaves the reasoning out of completion_tokens (total_tokens
// keeps it, as Gemini's does) reads the same.
//
// The speeds are wall-clock measurements of a simulator in this process:
// they follow testenv.Timed (a miss is raced again only where the client
// measured its own load, at most testenv.Attempts times in all, each logged).
func TestSilentThinkingMeasuredApart(t *testing.T) {
	const model = "sim:ttft=0,tps=500,chunk=5,reasoning=500,tokens=1000,rfield=hidden"
	providers := simulated(t, model, model+",excl_reasoning=1")
	testenv.Timed(t, func(a *testenv.Attempt) {
		// Warm: the thinking's window holds the request's round trip, not a
		// TCP handshake.
		for i, r := range raceWarm(t, a, providers, probes.Request{Prompt: "hi"}) {
			p := providers[i]
			f := metrics.Compute(r, 0)
			if f.HiddenReasoningTokens != 500 || f.ThinkingTokens != 500 || f.AnswerTokens != 1000 || f.OutputTokens != 1500 {
				t.Fatalf("%s: hidden %d, thinking %d, answer %d, output %d tokens; want 500, 500, 1000, 1500", p.Name,
					f.HiddenReasoningTokens, f.ThinkingTokens, f.AnswerTokens, f.OutputTokens)
			}
			t.Logf("%s: thinking %.1f tok/s over TTFA %v, answer %.1f tok/s, output %.1f tok/s", p.Name, f.ThinkingTPS, f.TTFA, f.AnswerTPS, f.OutputTPS)
			const rate = 500.0
			for _, s := range []struct {
				name      string
				got       float64
				ok        bool
				tolerance float64
			}{
				{"answer_tps", f.AnswerTPS, f.HasAnswerTPS, 0.03},
				{"output_tps", f.OutputTPS, f.HasOutputTPS, 0.03},
				{"thinking_tps", f.ThinkingTPS, f.HasThinkingTPS, 0.05},
			} {
				if !s.ok {
					t.Fatalf("%s: no %s", p.Name, s.name)
				}
				a.Within(p.Name+": "+s.name, s.got, rate, s.tolerance, "tok/s")
			}
		}
	})
}

// simulated starts the simulator for t and names a provider of it after
// each model.
func simulated(t *testing.T, models ...string) []config.Provider {
	srv := simtest.Start(t, sim.Options{})
	var providers []config.Provider
	for _, model := range models {
		providers = append(providers, config.Provider{Name: model, Model: model, BaseURL: srv.URL(), APIKey: "sk-test"})
	}
	return providers
}

// raceWarm races providers once, their connections opened before the
// release, and is each one's first stream; a stream that failed fails t,
// and the client's load goes to a (testenv.Timed).
func raceWarm(t *testing.T, a *testenv.Attempt, providers []config.Provider, req probes.Request) []*probes.Result {
	res := probes.Race{Providers: providers, Request: req, Warm: true}.Run(context.Background(), nil)
	first := make([]*probes.Result, len(res))
	for i := range res {
		if first[i] = &res[i][0]; first[i].Err != nil {
			t.Fatal(first[i].Err)
		}
		a.Load = cmp.Or(a.Load, metrics.Saturation(first[i].Load))
	}
	return first
}
