package benchdoc_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
)

// An SLO splits streams exactly as their known TTFT and speed say: of
// providers whose first token comes at 20 ms or 400 ms and who stream at
// 1,000 or 40 tok/s, only the quick fast one meets {ttft 200ms, 100 tok/s};
// at C = 2 its goodput has a rate per second of race.
func TestSLOSplitsStreamsByTheirKnownFigures(t *testing.T) {
	srv, err := sim.Start("127.0.0.1:0", sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	slo := config.SLO{TTFT: 200 * time.Millisecond, OutputTPS: 100}
	p := func(name, model string) config.Provider {
		return config.Provider{Name: name, Kind: config.KindOpenAI, BaseURL: srv.URL(), Model: model, Timeout: config.DefaultTimeouts, SLO: slo}
	}
	cfg := &config.Config{Prompt: "Explain caches.", MaxTokens: 40, SLO: slo, Providers: []config.Provider{
		p("good", "sim:ttft=20ms,tps=1000,tokens=30"), p("late", "sim:ttft=400ms,tps=1000,tokens=30"),
		p("slow", "sim:ttft=20ms,tps=40,tokens=10"), p("both", "sim:ttft=400ms,tps=40,tokens=10"),
	}}
	race := probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}, Concurrency: 2}
	b := benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: 2, Races: [][][]probes.Result{race.Run(context.Background(), nil)}})
	want := map[string][]string{"good": {}, "late": {"ttft"}, "slow": {"output_tps"}, "both": {"ttft", "output_tps"}}
	for _, pr := range b.Providers {
		for _, r := range pr.Streams {
			if !slices.Equal(r.SLOMissed, want[pr.Name]) {
				t.Errorf("%s stream %d: missed %v, want %v", pr.Name, r.Index, r.SLOMissed, want[pr.Name])
			}
		}
		g := pr.Summary.Goodput
		met := 0
		if len(want[pr.Name]) == 0 {
			met = 2
		}
		if g == nil || g.Met != met || g.Streams != 2 || g.PerSecond == nil || *g.SLO.TTFTms != 200 || *g.SLO.OutputTPS != 100 || g.SLO.E2Ems != nil {
			t.Errorf("%s: goodput %+v", pr.Name, g)
		} else if met > 0 && *g.PerSecond <= 0 {
			t.Errorf("%s: %d good streams, per second %v", pr.Name, met, *g.PerSecond)
		}
	}
}
