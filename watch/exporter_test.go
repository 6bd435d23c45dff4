package watch

import (
	"context"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// series finds one series of a gathered family by its label values.
func series(t *testing.T, families []*dto.MetricFamily, name string, labels map[string]string) *dto.Metric {
	t.Helper()
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if want, ok := labels[l.GetName()]; ok && want != l.GetValue() {
					continue metrics
				}
			}
			return m
		}
	}
	return nil
}

// One real race against the simulator: a completed stream is observed in
// every histogram, a one-event answer has no output speed to observe, a
// failure counts under its kind only, and a stream cut because tpsrace was
// stopped is left out altogether.
func TestObserveARace(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	providers := []config.Provider{
		{Name: "ok", BaseURL: srv.URL(), Model: "sim:ttft=20ms,tps=500,tokens=20"},
		{Name: "one-event", BaseURL: srv.URL(), Model: "sim:ttft=20ms,tokens=1"},
		{Name: "broken", BaseURL: srv.URL(), Model: "sim:fault=503"},
	}
	results := probes.Race{Providers: providers, Request: probes.Request{Prompt: "p", MaxTokens: 20}}.Run(context.Background(), nil)
	interrupted := results[0][0]
	interrupted.Interrupted = true
	e := NewExporter(nil)
	e.Start("here", providers)
	before, err := e.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if m := series(t, before, "tpsrace_failures_total", map[string]string{"provider": "ok", "kind": probes.KindTimeout}); m == nil || m.GetCounter().GetValue() != 0 {
		t.Errorf("before the first race: timeout failures %v, want a series at 0", m)
	}
	if m := series(t, before, "tpsrace_last_ttft_seconds", map[string]string{"provider": "ok"}); m != nil {
		t.Errorf("before the first race: a last TTFT %v nobody measured", m)
	}
	e.Observe("here", providers, results)
	e.Observe("here", providers[:1], [][]probes.Result{{interrupted}})

	families, err := e.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	count := func(name, provider string) uint64 {
		m := series(t, families, name, map[string]string{"provider": provider, "probe": "here"})
		if m == nil {
			return 0
		}
		return m.GetHistogram().GetSampleCount()
	}
	for _, tc := range []struct {
		provider            string
		ttft, speed, e2e    uint64
		races, http, lastOK float64
	}{
		{"ok", 1, 1, 1, 1, 0, 1},
		{"one-event", 1, 0, 1, 1, 0, 1},
		{"broken", 0, 0, 0, 1, 1, 0},
	} {
		if got := [3]uint64{count("tpsrace_ttft_seconds", tc.provider), count("tpsrace_output_tokens_per_second", tc.provider), count("tpsrace_e2e_seconds", tc.provider)}; got != [3]uint64{tc.ttft, tc.speed, tc.e2e} {
			t.Errorf("%s: TTFT, speed, E2E observations %v, want %v", tc.provider, got, [3]uint64{tc.ttft, tc.speed, tc.e2e})
		}
		l := map[string]string{"provider": tc.provider}
		if m := series(t, families, "tpsrace_races_total", l); m.GetCounter().GetValue() != tc.races {
			t.Errorf("%s: races %v, want %v", tc.provider, m.GetCounter().GetValue(), tc.races)
		}
		if m := series(t, families, "tpsrace_failures_total", map[string]string{"provider": tc.provider, "kind": probes.KindHTTP}); m.GetCounter().GetValue() != tc.http {
			t.Errorf("%s: http failures %v, want %v", tc.provider, m.GetCounter().GetValue(), tc.http)
		}
		if m := series(t, families, "tpsrace_last_race_ok", l); m.GetGauge().GetValue() != tc.lastOK {
			t.Errorf("%s: last race ok %v, want %v", tc.provider, m.GetGauge().GetValue(), tc.lastOK)
		}
	}
	if m := series(t, families, "tpsrace_output_tokens_total", map[string]string{"provider": "ok"}); m.GetCounter().GetValue() != 20 {
		t.Errorf("output tokens %v, want 20 (the interrupted copy left out)", m.GetCounter().GetValue())
	}
	// The last-value gauge is the figure metrics.Compute defines, exactly.
	if m, f := series(t, families, "tpsrace_last_output_tokens_per_second", map[string]string{"provider": "ok"}), metrics.Compute(&results[0][0], 0); m.GetGauge().GetValue() != f.OutputTPS {
		t.Errorf("last speed %v, want metrics.Compute's %v", m.GetGauge().GetValue(), f.OutputTPS)
	}
}

// The SLO's counters split streams by what is known of them: a 20 ms first
// token meets ttft 200ms, a 400 ms one misses it, a failure misses
// "completed"; "all" counts the goodput.
func TestObserveSLO(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	slo := config.SLO{TTFT: 200 * time.Millisecond}
	providers := []config.Provider{
		{Name: "quick", BaseURL: srv.URL(), Model: "sim:ttft=20ms,tps=500,tokens=20", SLO: slo},
		{Name: "late", BaseURL: srv.URL(), Model: "sim:ttft=400ms,tps=500,tokens=20", SLO: slo},
		{Name: "broken", BaseURL: srv.URL(), Model: "sim:fault=503", SLO: slo},
	}
	e := NewExporter(nil)
	e.Start("here", providers)
	e.Observe("here", providers, probes.Race{Providers: providers, Request: probes.Request{Prompt: "p", MaxTokens: 20}}.Run(context.Background(), nil))
	families, err := e.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	value := func(name, provider, bound string) float64 {
		m := series(t, families, name, map[string]string{"provider": provider, "bound": bound})
		if m == nil {
			t.Fatalf("no %s{provider=%s,bound=%s}", name, provider, bound)
		}
		return m.GetCounter().GetValue()
	}
	for _, tc := range []struct {
		provider, bound string
		met, missed     float64
	}{
		{"quick", "ttft", 1, 0}, {"quick", "all", 1, 0}, {"quick", "completed", 1, 0},
		{"late", "ttft", 0, 1}, {"late", "all", 0, 1}, {"late", "completed", 1, 0},
		{"broken", "completed", 0, 1}, {"broken", "ttft", 0, 1}, {"broken", "all", 0, 1},
	} {
		if met, missed := value("tpsrace_slo_met_total", tc.provider, tc.bound), value("tpsrace_slo_missed_total", tc.provider, tc.bound); met != tc.met || missed != tc.missed {
			t.Errorf("%s %s: met %v missed %v, want %v and %v", tc.provider, tc.bound, met, missed, tc.met, tc.missed)
		}
	}
}
