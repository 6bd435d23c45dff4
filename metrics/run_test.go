package metrics

import (
	"math"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

// reaching is a completed stream of one-token events, 10 ms apart, the
// last (the n-th token) at at.
func reaching(at time.Duration, n int) Stream {
	var r probes.Result
	for i := range n {
		r.Events.Append(probes.Event{At: at - time.Duration(n-1-i)*10*time.Millisecond, Content: " a", Tokens: 1})
	}
	r.End = at
	return StreamOf(&r, 0, n)
}

// The race to N is decided on the median time, not the median rate: the
// issue's race (a reaches N at 1 s and 3 s, b at 2.1 s twice) reads "a is
// 1.05× faster", on every view, since every view reads SummaryOf.
func TestTimeToNIsTheMedianTime(t *testing.T) {
	const n = 20
	a := SummaryOf([]Stream{reaching(time.Second, n), reaching(3*time.Second, n)}, n)
	b := SummaryOf([]Stream{reaching(2100*time.Millisecond, n), reaching(2100*time.Millisecond, n)}, n)
	if a.TimeToN.P50 != 2*time.Second || b.TimeToN.P50 != 2100*time.Millisecond {
		t.Fatalf("time to N: a %v, b %v; want 2s, 2.1s", a.TimeToN.P50, b.TimeToN.P50)
	}
	v := Decide([]Contender{ContenderOf("a", []Summary{a}), ContenderOf("b", []Summary{b})}, n)
	if got := v.Text(); got != "a is 1.05× faster than b to 20 tokens (2.00s vs 2.10s)" {
		t.Errorf("verdict %q", got)
	}
}

// Each figure is over the streams that measured it: a stream cut after
// its first token keeps its TTFT and its tokens, not its speed; one
// refused before any token has no TTFT, no cost, no speed; the provider
// is rate-limited when one stream was answered 429.
func TestRunTakesEachFigureFromTheStreamsThatMeasuredIt(t *testing.T) {
	price := &config.Price{InputPerMTok: 1, OutputPerMTok: 1}
	ok := probes.Result{Price: price, End: 500 * time.Millisecond, Usage: &probes.Usage{PromptTokens: 10, CompletionTokens: 40}}
	for i := range 40 {
		ok.Events.Append(probes.Event{At: 100*time.Millisecond + time.Duration(i)*10*time.Millisecond, Content: " a", Tokens: 1})
	}
	cut := probes.Result{Price: price, End: 300 * time.Millisecond, Err: &probes.Failure{Kind: probes.KindNetwork, Message: "reset"}}
	for i := range 10 {
		cut.Events.Append(probes.Event{At: 50*time.Millisecond + time.Duration(i)*10*time.Millisecond, Content: " a", Tokens: 1})
	}
	refused := probes.Result{Price: price, End: 5 * time.Millisecond, Err: &probes.Failure{Kind: probes.KindHTTP, Status: 429}}
	if f := Compute(&refused, 10); f.HasCost {
		t.Errorf("a request refused before any token costs %v, want none", f.CostUSD)
	}
	var streams []Stream
	for _, r := range []probes.Result{ok, cut, refused} {
		streams = append(streams, StreamOf(&r, 10, 0))
	}
	r := SummaryOf(streams, 0)
	if r.Completed != 1 || r.Failed != 2 || !r.RateLimited {
		t.Errorf("completed %d, failed %d, rate-limited %v", r.Completed, r.Failed, r.RateLimited)
	}
	if r.TTFT.N != 2 || r.TTFT.P50 != 75*time.Millisecond || r.TTFT.Max != 100*time.Millisecond {
		t.Errorf("TTFT %+v: want the median of 100ms and 50ms over the two streams with text", r.TTFT)
	}
	if r.Speed.N != 1 || r.E2E.N != 1 || r.E2E.P50 != 500*time.Millisecond {
		t.Errorf("speed %+v, E2E %+v: want the completed stream's only", r.Speed, r.E2E)
	}
	if r.CostUSD.N != 2 || r.Tokens != 10 || r.TotalTokens != 50 {
		t.Errorf("cost over %d requests, tokens per user %d, total %d; want 2, the median of 40, 10, 0, and 50", r.CostUSD.N, r.Tokens, r.TotalTokens)
	}
	if !math.IsNaN(SummaryOf(streams[1:], 0).Rate()) {
		t.Error("a provider with no completed stream has a rate")
	}
}
