package probes_test

import (
	"context"
	"testing"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// With Warm every stream finds its connection open: no stream of the race
// dials. Without it, on fresh clients, every stream does. Either way each
// stream records when it began its request, a moment after the release.
func TestWarmOpensTheConnectionsBeforeTheRelease(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	providers := []config.Provider{
		{Name: "a", BaseURL: srv.URL(), Model: "sim:ttft=5ms,tps=2000,tokens=20", Timeout: config.DefaultTimeouts},
		{Name: "b", BaseURL: srv.URL(), Model: "sim:ttft=5ms,tps=2000,tokens=20", Timeout: config.DefaultTimeouts},
	}
	for _, warm := range []bool{false, true} {
		clients := &probes.Clients{}
		race := probes.Race{Providers: providers, Request: probes.Request{Prompt: "hi", MaxTokens: 20}, Concurrency: 3, Clients: clients, Warm: warm}
		var sent []probes.Result
		for _, streams := range race.Run(context.Background(), nil) {
			for _, r := range streams {
				if !r.OK() {
					t.Fatalf("warm %v: %v", warm, r.Err)
				}
				if dialed := r.Phases.Connected > 0; dialed == warm {
					t.Errorf("warm %v: stream %s/%d dialed %v (connected at %v)", warm, r.Provider, r.Stream, dialed, r.Phases.Connected)
				}
				if r.Sent < 0 || r.Sent > r.Phases.FirstByte {
					t.Errorf("stream %s/%d sent at %v, first byte at %v", r.Provider, r.Stream, r.Sent, r.Phases.FirstByte)
				}
				sent = append(sent, r)
			}
		}
		skew, ok := metrics.StartSkewOf(sent)
		t.Logf("warm %v: start skew %v over %d streams", warm, skew, len(sent))
		if !ok || skew.Spread < 0 || skew.Hosts != 0 {
			t.Errorf("start skew %v, %v", skew, ok)
		}
		clients.Close()
	}
}
