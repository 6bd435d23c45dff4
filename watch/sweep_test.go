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
// knee is 1; every level was measured, so every level has its series.
func TestWatchSweepExportsLevels(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	providers := []config.Provider{{Name: "one-slot", BaseURL: srv.URL(), Model: "sim:ttft=0s,tps=400,tokens=40,batch=1"}}
	cfg := &config.Config{Prompt: "p", MaxTokens: 40, Providers: providers}
	testenv.BestOf(t, func() []string {
		w := &Watcher{Config: cfg, Race: probes.Race{Providers: providers, Request: probes.Request{Prompt: "p", MaxTokens: 40}},
			Probe: "here", Exporter: NewExporter(false), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Sweep: []int{1, 2, 4}}
		b := w.sweepOnce(context.Background(), time.Now())
		if b.SweepStopped != nil {
			return []string{*b.SweepStopped} // this machine was busy: load, not the exporter
		}
		families, err := w.Exporter.registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		var problems []string
		for _, c := range []string{"1", "2", "4"} {
			l := map[string]string{"provider": "one-slot", "concurrency": c}
			m := series(t, families, "tpsrace_sweep_aggregate_tokens_per_second", l)
			if m == nil || m.GetGauge().GetValue() < 300 || m.GetGauge().GetValue() > 420 {
				problems = append(problems, "aggregate at C="+c+": "+m.String()+", want about 400")
			}
			if series(t, families, "tpsrace_sweep_per_user_tokens_per_second", l) == nil || series(t, families, "tpsrace_sweep_client_bent", l) == nil {
				problems = append(problems, "no per-user or client_bent series at C="+c)
			}
		}
		if m := series(t, families, "tpsrace_sweep_knee_concurrency", map[string]string{"provider": "one-slot"}); m == nil || m.GetGauge().GetValue() != 1 {
			problems = append(problems, "knee "+m.String()+", want 1 ("+b.SweepVerdict+")")
		}
		return problems
	})
}
