//go:build !race

// Timing assertions are built without the race detector, which slows every
// memory access several times over (see probes/timing_test.go).

package ui

import (
	"cmp"
	"context"
	"testing"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// Output speed measured with the dashboard running equals the headless
// figure within 1% at 3000 tok/s: the UI never slows the streams it measures.
// A miss is measured again where the client saw its own load
// (testenv.Timed).
func TestDashboardDoesNotSlowTheStream(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	const model = "sim:ttft=50ms,tps=3000,tokens=3000,chunk=1"
	cfg := simConfig(srv, "Count.", 3000, model)

	testenv.Timed(t, func(a *testenv.Attempt) {
		headless := probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}}.Run(context.Background(), nil)
		want := metrics.Compute(&headless[0][0], 0)

		tm := startProgram(t, Options{Config: cfg})
		waitFor(t, tm, "streamed at")
		m := quit(t, tm)
		dashboard := lastRace(t, m)[0][0]
		got := metrics.Compute(&dashboard, 0)
		a.Load = cmp.Or(metrics.Saturation(dashboard.Load), metrics.Saturation(headless[0][0].Load))

		t.Logf("output speed: dashboard %.1f tok/s, headless %.1f tok/s, scheduled 3000", got.OutputTPS, want.OutputTPS)
		if got.OutputTokens != 3000 || want.OutputTokens != 3000 {
			t.Fatalf("tokens: dashboard %d, headless %d, want 3000", got.OutputTokens, want.OutputTokens)
		}
		a.Within("output speed with the dashboard against headless", got.OutputTPS, want.OutputTPS, 0.01, "tok/s")
		a.Within("output speed with the dashboard against the schedule", got.OutputTPS, 3000, 0.01, "tok/s")
	})
}
