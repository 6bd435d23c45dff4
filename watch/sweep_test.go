package watch

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// A watch that sweeps exports each level's figures under its concurrency
// label and the knee: one decode slot gains nothing past one user, so its
// knee is 1; every level was measured, so every level has its series. At
// 100 tok/s the gaps are 10 ms or more, so the sweep stops only for a
// client whose wakes are 2.5 ms late (the referee's limit: a quarter of the
// gap), not at the 0.6 ms that 400 tok/s allowed, which the wakes of a
// -race run of the whole suite on 2 cores exceeded at C=1 (CI, 2026-12-07).
func TestWatchSweepExportsLevels(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	providers := []config.Provider{{Name: "one-slot", BaseURL: srv.URL(), Model: "sim:ttft=0s,tps=100,tokens=20,batch=1"}}
	cfg := &config.Config{Prompt: "p", MaxTokens: 20, Providers: providers}
	testenv.Timed(t, func(a *testenv.Attempt) {
		w := &Watcher{Config: cfg, Race: probes.Race{Providers: providers, Request: probes.Request{Prompt: "p", MaxTokens: 20}},
			Probe: "here", Exporter: NewExporter(nil), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Sweep: []int{1, 2, 4}}
		b := w.sweepOnce(context.Background(), time.Now())
		if b.SweepStopped != nil { // the client saturated: load, which the sweep reads as the referee does
			a.Load = *b.SweepStopped
			a.Missf("the sweep stopped climbing")
			return
		}
		families, err := w.Exporter.registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{"1", "2", "4"} {
			l := map[string]string{"provider": "one-slot", "concurrency": c}
			if m := series(t, families, "tpsrace_sweep_aggregate_tokens_per_second", l); m == nil {
				t.Errorf("no aggregate series at C=%s", c)
			} else {
				a.Within("aggregate at C="+c, m.GetGauge().GetValue(), 100, 0.15, "tok/s")
			}
			if series(t, families, "tpsrace_sweep_per_user_tokens_per_second", l) == nil || series(t, families, "tpsrace_sweep_client_bent", l) == nil {
				t.Errorf("no per-user or client_bent series at C=%s", c)
			}
		}
		if m := series(t, families, "tpsrace_sweep_knee_concurrency", map[string]string{"provider": "one-slot"}); m == nil || m.GetGauge().GetValue() != 1 {
			a.Missf("knee %v, want 1 (%s)", m, b.SweepVerdict)
		}
	})
}
