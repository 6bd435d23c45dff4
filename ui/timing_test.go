//go:build !race

// Timing assertions are built without the race detector, which slows every
// memory access several times over (see probes/timing_test.go).

package ui

import (
	"context"
	"fmt"
	"math"
	"testing"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// Output speed measured with the dashboard running equals the headless
// figure within 1% at 3000 tok/s: the UI never slows the streams it measures.
// Another process on the machine can only add error, so any of three
// attempts meeting the bound shows it.
func TestDashboardDoesNotSlowTheStream(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	const model = "sim:ttft=50ms,tps=3000,tokens=3000,chunk=1"
	cfg := simConfig(srv, "Count.", 3000, model)

	var problems []string
	for range 3 {
		headless := probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}}.Run(context.Background(), nil)
		want := metrics.Compute(&headless[0][0], 0)

		tm := startProgram(t, Options{Config: cfg})
		waitFor(t, tm, "streamed at")
		m := quit(t, tm)
		got := metrics.Compute(&lastRace(t, m)[0][0], 0)

		t.Logf("output speed: dashboard %.1f tok/s, headless %.1f tok/s, scheduled 3000", got.OutputTPS, want.OutputTPS)
		if got.OutputTokens != 3000 || want.OutputTokens != 3000 {
			t.Fatalf("tokens: dashboard %d, headless %d, want 3000", got.OutputTokens, want.OutputTokens)
		}
		problems = problems[:0]
		if diff := math.Abs(got.OutputTPS-want.OutputTPS) / want.OutputTPS; diff > 0.01 {
			problems = append(problems, fmt.Sprintf("with the dashboard %.1f tok/s, headless %.1f tok/s: %.2f%% apart", got.OutputTPS, want.OutputTPS, 100*diff))
		}
		if diff := math.Abs(got.OutputTPS-3000) / 3000; diff > 0.01 {
			problems = append(problems, fmt.Sprintf("with the dashboard %.1f tok/s, scheduled 3000: %.2f%% apart", got.OutputTPS, 100*diff))
		}
		if len(problems) == 0 {
			return
		}
	}
	t.Error(problems)
}
