package benchdoc

import (
	"context"
	"strings"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

// tenMsStream is one completed stream of 101 one-token events, 10 ms apart.
func tenMsStream(load *probes.ClientLoad) probes.Result {
	var evs []probes.Event
	for i := range 101 {
		evs = append(evs, probes.Event{At: time.Duration(i) * 10 * time.Millisecond, Content: " the", Tokens: 1})
	}
	return probes.Result{Provider: "p", Model: "m", Events: probes.EventsOf(evs...), End: time.Second, Load: load}
}

// Climb races the levels in turn, warmed, until the client saturates:
// that level is kept, marked bent, the levels above are not raced, and
// the verdict and sweep_stopped say why.
func TestClimbStopsWhereTheClientSaturates(t *testing.T) {
	cfg := &config.Config{Prompt: "p", Providers: []config.Provider{{Name: "p", Model: "m"}}}
	busy := &probes.ClientLoad{CPU: 0.95, GOMAXPROCS: 2}
	var raced []int
	levels, stopped := Climb(context.Background(), probes.Race{Providers: cfg.Providers}, []int{1, 2, 4, 8}, func(race probes.Race) [][][]probes.Result {
		if !race.Warm {
			t.Errorf("C=%d raced cold", race.Concurrency)
		}
		raced = append(raced, race.Concurrency)
		var load *probes.ClientLoad
		if race.Concurrency == 4 {
			load = busy
		}
		streams := make([]probes.Result, race.Concurrency)
		for i := range streams {
			streams[i] = tenMsStream(load)
		}
		return [][][]probes.Result{{streams}}
	})
	if len(raced) != 3 || len(levels) != 3 {
		t.Fatalf("raced %v, want 1, 2, 4 and a stop", raced)
	}
	want := "tpsrace itself saturated at C=4 (tpsrace used 95% of 2 cores): the sweep stopped there, C=8 not raced"
	if stopped != want {
		t.Errorf("stopped %q, want %q", stopped, want)
	}
	b := BuildSweep(SweepInput{Input: Input{Config: cfg}, Asked: []int{1, 2, 4, 8}, Levels: levels, Stopped: stopped})
	if b.Concurrency != 1 || len(b.Levels) != 3 || *b.SweepStopped != want {
		t.Fatalf("document: C=%d, %d levels, stopped %v", b.Concurrency, len(b.Levels), b.SweepStopped)
	}
	if bent := b.Levels[2].Providers[0]; !bent.ClientBent || bent.Flags[0] != "client_saturated" {
		t.Errorf("C=4: %+v, want it bent and flagged", bent)
	}
	// 100 tokens/s per user; the aggregate counts all 101 tokens over 1 s.
	if p := b.Levels[1].Providers[0]; *p.PerUserTPS != 100 || *p.AggregateTPS != 202 {
		t.Errorf("C=2: per user %v, aggregate %v", *p.PerUserTPS, *p.AggregateTPS)
	}
	if !strings.HasSuffix(b.SweepVerdict, ". "+want) || b.Knees[0].Concurrency != nil {
		t.Errorf("verdict %q, knee %v: want no knee from the unbent levels and the stop said", b.SweepVerdict, b.Knees[0].Concurrency)
	}
}
