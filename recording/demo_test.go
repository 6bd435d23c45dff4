package recording_test

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

var update = flag.Bool("update", false, "record testdata/race.tpsr again against the simulator")

// demoRecording is the race shipped for `tpsrace replay testdata/race.tpsr`.
const demoRecording = "../testdata/race.tpsr"

// The shipped recording reads whole and holds what the README promises:
// several simulated providers, one reasoning model, one failure. With
// -update it is recorded again, by this package, against the simulator.
func TestDemoRecording(t *testing.T) {
	if *update {
		recordDemo(t)
	}
	rec, err := recording.Open(demoRecording)
	if err != nil {
		t.Fatal(err)
	}
	b := benchdoc.Build(rec.Report())
	var reasoning, failed int
	for _, p := range b.Providers {
		for _, r := range p.Streams {
			if r.ReasoningChars > 0 {
				reasoning++
			}
			if !r.OK {
				failed++
			}
		}
	}
	if !rec.Header.Simulated || len(b.Providers) < 4 || reasoning != 1 || failed != 1 || b.Verdict.Winner == nil {
		t.Errorf("%s: simulated %v, %d providers, %d reasoning, %d failed, winner %v: want a simulated race of 4+ providers, one reasoning, one failure",
			demoRecording, rec.Header.Simulated, len(b.Providers), reasoning, failed, b.Verdict.Winner)
	}
}

func recordDemo(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	cfg := &config.Config{Prompt: config.DefaultPrompt, MaxTokens: 120}
	for _, p := range []struct{ name, model string }{
		{"sim-wafer", "wafer"}, {"sim-lpu", "lpu"}, {"sim-thinker", "gpu,tps=220,reasoning=60"},
		{"sim-laptop", "laptop,tps=40"}, {"sim-flaky", "lpu,tps=300,fault=close,after=50"},
	} {
		cfg.Providers = append(cfg.Providers, config.Provider{Name: p.name, Kind: config.KindOpenAI, BaseURL: srv.URL(),
			Model: sim.Prefix + p.model, Timeout: config.DefaultTimeouts})
	}
	w, err := recording.Create(demoRecording, recording.NewHeader(cfg, 1, time.Time{}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	race := probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}}
	w.Race(race.Run(context.Background(), nil))
	if err := w.Close(false); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(demoRecording)
	t.Logf("recorded %s (%d bytes)", demoRecording, info.Size())
}
