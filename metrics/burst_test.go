package metrics_test

import (
	"strings"
	"testing"
	"time"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/testenv"
	"tpsrace/workload"
)

// An answer a buffering proxy holds back (the simulator's buffered=1: 60
// tokens at 400 tok/s after 50 ms, all sent when the last is made, 197.5 ms
// after the request) has no output speed and raises one_burst; its first
// token is timed when it came, with the last. The same schedule streamed
// reads 400 tok/s, unflagged.
func TestAnswerInOneBurst(t *testing.T) {
	const model = "sim:ttft=50ms,tps=400,tokens=60"
	providers := simulated(t, model, model+",buffered=1", model+",buffered=1,gzip=1")
	chat, _ := workload.Named(workload.Chat)
	testenv.Timed(t, func(a *testenv.Attempt) {
		for i, r := range raceWarm(t, a, providers, probes.Request{Prompt: "hi", MaxTokens: 100}) {
			p := providers[i]
			f := metrics.Compute(r, 0)
			flags := metrics.StreamFlags(r, f, "", chat)
			burst, flagged := flags[metrics.FlagOneBurst]
			if i == 0 {
				if flagged || !f.HasOutputTPS || f.Felt.Label() != "smooth" {
					t.Fatalf("%s: one_burst %v (%q), speed %v, feel %q; want a speed, smooth", p.Name, flagged, burst, f.HasOutputTPS, f.Felt.Label())
				}
				a.Within("output speed", f.OutputTPS, 400, 0.01, "tok/s")
				continue
			}
			if !flagged || f.HasOutputTPS || f.Felt.Label() != metrics.FeelOneBurst {
				t.Fatalf("%s: one_burst %v, speed %v (%.0f), feel %q; want the flag, no speed, %q", p.Name, flagged, f.HasOutputTPS, f.OutputTPS, f.Felt.Label(), metrics.FeelOneBurst)
			}
			if !strings.Contains(burst, "all 60 text events (60 tokens) arrived within") {
				t.Errorf("%s: evidence %q", p.Name, burst)
			}
			if want := 50*time.Millisecond + 59*time.Second/400; f.TTFT < want || f.TTFT > want+5*time.Millisecond {
				a.Missf("%s: TTFT %v, want %v (+5ms): the first token came with the last", p.Name, f.TTFT, want)
			}
		}
	})
}
