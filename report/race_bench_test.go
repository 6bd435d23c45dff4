package report

import (
	"io"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
)

// bigRace is bench's input after one race of 1024 streams of 2,000
// one-token events, counted as the probe counts them.
func bigRace() benchdoc.Input {
	race := make([]probes.Result, 1024)
	for i := range race {
		race[i] = stream(msec, msec+time.Duration(i%7)*time.Microsecond, 2000)
		race[i].O200kTokens = 2000
	}
	cfg := &config.Config{Prompt: "p", MaxTokens: 2000, Providers: []config.Provider{{Name: "sim", Model: "sim:x"}}}
	return benchdoc.Input{Config: cfg, Concurrency: len(race), Races: [][][]probes.Result{{race}}}
}

// BenchmarkBuildRace and BenchmarkWriteJSON are what bench allocates
// after a race of 1024 streams, before it exits: its report, then the
// report's JSON. Allocated while the race's garbage is still on the heap,
// they made bench's peak memory (docs/BENCHMARKS.md, "Scale on one box").
func BenchmarkBuildRace(b *testing.B) {
	in := bigRace()
	b.ReportAllocs()
	for b.Loop() {
		benchdoc.Build(in)
	}
}

func BenchmarkWriteJSON(b *testing.B) {
	doc := build(bigRace())
	b.ReportAllocs()
	for b.Loop() {
		if err := doc.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
