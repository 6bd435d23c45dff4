package metrics_test

import (
	"context"
	"math"
	"testing"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// A simulated model that thinks 500 tokens silently at 500 tok/s, then
// streams 500 answer tokens at the same rate, over loopback: the answer
// and output speeds read the rate (not the 1,000 reported tokens over the
// visible half), the hidden tokens are usage's exactly, and the thinking
// speed, whose window opens at release and so holds the request's own
// round trip, reads the rate too.
func TestSilentThinkingMeasuredApart(t *testing.T) {
	const rate, thinking, answer = 500.0, 500, 500
	srv := simtest.Start(t, sim.Options{})
	p := config.Provider{Name: "thinker", Model: "sim:ttft=0,tps=500,chunk=5,reasoning=500,tokens=500,rfield=hidden", BaseURL: srv.URL(), APIKey: "sk-test"}
	res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi"}}.Run(context.Background(), nil)
	r := &res[0][0]
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	f := metrics.Compute(r, 0)
	if f.HiddenReasoningTokens != thinking || f.ThinkingTokens != thinking || f.AnswerTokens != answer || f.OutputTokens != thinking+answer {
		t.Errorf("hidden %d, thinking %d, answer %d, output %d tokens; want %d, %d, %d, %d",
			f.HiddenReasoningTokens, f.ThinkingTokens, f.AnswerTokens, f.OutputTokens, thinking, thinking, answer, thinking+answer)
	}
	within := func(name string, got float64, ok bool, share float64) {
		t.Helper()
		if !ok || math.Abs(got-rate) > share*rate {
			t.Errorf("%s = %.1f tok/s (defined %v), want %.0f ± %.0f%%", name, got, ok, rate, share*100)
		}
	}
	within("answer_tps", f.AnswerTPS, f.HasAnswerTPS, 0.03)
	within("output_tps", f.OutputTPS, f.HasOutputTPS, 0.03)
	within("thinking_tps", f.ThinkingTPS, f.HasThinkingTPS, 0.05)
	t.Logf("thinking %.1f tok/s over TTFA %v, answer %.1f tok/s, output %.1f tok/s", f.ThinkingTPS, f.TTFA, f.AnswerTPS, f.OutputTPS)
}
