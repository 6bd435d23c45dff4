package metrics_test

import (
	"fmt"
	"time"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
)

// One provider's run at C=2 with --finish-at 3: a stream's figures come
// from its recorded events (StreamOf, Compute), the provider's from all
// its streams (SummaryOf), and the verdict's rate from those.
func Example() {
	stream := func(ttft, gap time.Duration) probes.Result {
		var r probes.Result
		for i := range 5 {
			r.Events.Append(probes.Event{At: ttft + time.Duration(i)*gap, Content: " word", Tokens: 1})
		}
		r.End = ttft + 4*gap
		return r
	}
	var streams []metrics.Stream
	for _, r := range []probes.Result{stream(100*time.Millisecond, 10*time.Millisecond), stream(300*time.Millisecond, 20*time.Millisecond)} {
		streams = append(streams, metrics.StreamOf(&r, 0, 3))
	}
	run := metrics.SummaryOf(streams, 3)
	fmt.Println("TTFT p50", format.Duration(run.TTFT.P50), "max", format.Duration(run.TTFT.Max))
	fmt.Println("per-user", format.TPS(run.Speed.P50), "tok/s, aggregate", format.TPS(run.AggregateTPS), "tok/s")
	fmt.Println("time to 3 tokens", format.Duration(run.TimeToN.P50), "tokens per user", run.Tokens)
	// Output:
	// TTFT p50 200ms max 300ms
	// per-user 75.0 tok/s, aggregate 26.3 tok/s
	// time to 3 tokens 230ms tokens per user 5
}
