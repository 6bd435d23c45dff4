//go:build unix

package llamacpp

import (
	"context"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/llamacpp/llamacpptest"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/testenv"
)

// TestRealSweepRisesToItsSlots sweeps a real llama-server with 4 slots
// (--parallel 4) over 1, 2, 4 and 8 users, as bench --sweep races it
// (warmed, one race per level): up to its slots the server decodes the
// users in one batch, so its aggregate speed rises from one user to the
// slots, by 15% or more in one round of the levels (the tiny model on one thread:
// 1.3× to 2× measured); past them the extra users queue, and the curve's
// knee (metrics.KneeOf) is at the slots or before. Wall-clock speeds on a
// shared machine: testenv.Timed's rule (a miss is measured again only under load),
// each level its best of three interleaved rounds (bestOfRounds).
func TestRealSweepRisesToItsSlots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	p, _ := startReal(t, ctx, llamacpptest.Model(t), "4", oneThread)
	race := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "Say something.", MaxTokens: 256}, Warm: true, Clients: &probes.Clients{}}
	defer race.Clients.Close()
	testenv.Timed(t, func(a *testenv.Attempt) {
		points, gain := bestOfRounds(t, ctx, race, []int{1, 2, 4, 8}, a)
		for i := 1; i < len(points); i++ {
			t.Logf("C=%d → C=%d: aggregate %.0f → %.0f tok/s", points[i-1].Concurrency, points[i].Concurrency, points[i-1].Aggregate.Median, points[i].Aggregate.Median)
		}
		if gain < 1.15 {
			a.Missf("4 users (the slots) against one user in the same round: at best %.2f×, want 1.15× or more", gain)
		}
		if k := metrics.KneeOf(points); k.Found && k.At > 4 {
			a.Missf("knee at C=%d, past the 4 slots", k.At)
		}
	})
}

// bestOfRounds races each of levels three times, the levels interleaved,
// and keeps each level's best aggregate reading. Load only lowers a
// level's aggregate, and under go test ./... other packages' tests come
// and go between levels (one level raced beside them, the next alone,
// read as a curve that fell within the slots): the best of interleaved
// rounds is each level's least-loaded reading. gain is the slots' aggregate
// over one user's within a round, the best of the rounds: two races
// moments apart share their load. A level where tpsrace itself was
// saturated is a's load.
func bestOfRounds(t *testing.T, ctx context.Context, race probes.Race, levels []int, a *testenv.Attempt) (best []metrics.SweepPoint, gain float64) {
	t.Helper()
	best = make([]metrics.SweepPoint, len(levels))
	for round := range 3 {
		var one float64
		for l, level := range levels {
			race.Concurrency = level
			results := race.Run(ctx, nil)
			if why := metrics.ClientSaturatedIn([][][]probes.Result{results}); why != "" {
				a.Load = why
			}
			var streams []metrics.Stream
			for i := range results[0] {
				if !results[0][i].OK() {
					t.Fatalf("C=%d stream %d: %v", level, i, results[0][i].Err)
				}
				streams = append(streams, metrics.StreamOf(&results[0][i], 0, 0))
			}
			p := metrics.SweepPointOf(level, [][]metrics.Stream{streams}, config.SLO{}, metrics.Flags{})
			if round == 0 || p.Aggregate.Median > best[l].Aggregate.Median {
				best[l] = p
			}
			switch level {
			case 1:
				one = p.Aggregate.Median
			case 4: // the slots, raced moments after one user: the gain under the same load
				gain = max(gain, p.Aggregate.Median/one)
			}
		}
	}
	return best, gain
}
