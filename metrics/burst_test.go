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

// An answer a buffering proxy holds back (the simulator's buffered=1: 20
// tokens at 400 tok/s after 50 ms, all sent when the last is made, 97.5 ms
// after the request) raises one_burst, has no output speed and feels "one
// burst"; its first token is timed when it came, with the last. The same
// schedule streamed reads 400 tok/s, unflagged. Whether the client read
// the burst within MinGap is a wall-clock matter: a loaded client (the
// race detector's, a busy CI) may take longer, and is raced again.
func TestAnswerInOneBurst(t *testing.T) {
	const model = "sim:ttft=50ms,tps=400,tokens=20"
	providers := simulated(t, model, model+",buffered=1", model+",buffered=1,gzip=1")
	chat, _ := workload.Named(workload.Chat)
	testenv.Timed(t, func(a *testenv.Attempt) {
		for i, r := range raceWarm(t, a, providers, probes.Request{Prompt: "hi", MaxTokens: 100}) {
			p := providers[i]
			f := metrics.Compute(r, 0)
			burst, flagged := metrics.StreamFlags(r, f, "", chat)[metrics.FlagOneBurst]
			if flagged != (f.Felt.Label() == metrics.FeelOneBurst) || flagged == f.HasOutputTPS {
				t.Errorf("%s: one_burst %v, speed %v, feel %q: the flag, no speed and the feel go together", p.Name, flagged, f.HasOutputTPS, f.Felt.Label())
			}
			if i == 0 {
				if flagged {
					t.Fatalf("%s: a streamed answer flagged one_burst: %s", p.Name, burst)
				}
				a.Within("output speed", f.OutputTPS, 400, 0.05, "tok/s") // over 47.5 ms: exactness is TestMeasuredSpeedMatchesSchedule's
				continue
			}
			if !flagged {
				a.Missf("%s: not flagged one_burst: its 20 events read over %v", p.Name, f.E2E-f.TTFT)
				continue
			}
			if !strings.Contains(burst, "all 20 text events (20 tokens) arrived within") {
				t.Errorf("%s: evidence %q", p.Name, burst)
			}
			switch want := 50*time.Millisecond + 19*time.Second/400; {
			case f.TTFT < want:
				t.Errorf("%s: TTFT %v, before %v: the first token came with the last", p.Name, f.TTFT, want)
			case f.TTFT > want+20*time.Millisecond:
				a.Missf("%s: TTFT %v, want %v (+20ms)", p.Name, f.TTFT, want)
			}
		}
	})
}
