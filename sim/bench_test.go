package sim

import (
	"context"
	"io"
	"testing"
	"time"
)

// BenchmarkStream100kTokens streams 100k one-token events with nothing to
// wait for, so it measures the CPU per event (server and test client
// together, over real loopback HTTP).
func BenchmarkStream100kTokens(b *testing.B) {
	s := startServer(b, Options{})
	const n = 100_000
	body := chatBody("sim:ttft=0s,tps=1e12,tokens=100000,usage=none", nil)
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		resp, _ := post(b, context.Background(), s, body)
		written, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || written < n*10 {
			b.Fatalf("read %d bytes: %v", written, err)
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N*n), "ns/token")
}
