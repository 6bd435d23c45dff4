package metrics

import (
	"testing"
	"time"

	"tpsrace/probes"
)

// BenchmarkCompute: the figures of one stream of 2,000 one-token events
// at about 20,000 tok/s, what bench computes once per stream and the
// dashboard once per finished stream.
func BenchmarkCompute(b *testing.B) {
	words := []string{" the", " cache", " line", ",", " is", " a", " block", " of", " memory", "."}
	var r probes.Result
	at := time.Millisecond
	for i := range 2000 {
		at += 50*time.Microsecond + time.Duration(i%7)*time.Microsecond
		r.Events.Append(probes.Event{At: at, Content: words[i%len(words)], Tokens: 1})
	}
	r.End, r.O200kTokens, r.FinishReason = at+time.Millisecond, 2000, "stop"
	b.ReportAllocs()
	for b.Loop() {
		Compute(&r, 10)
	}
}
