package sim

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"

	"tpsrace/testenv"
)

// Slowdown is the documented formula, exactly.
func TestSlowdown(t *testing.T) {
	slots, _ := ParseSchedule("sim:tps=100,batch=8")
	gpu, _ := ParseSchedule("sim:tps=100,contention=0.5,batch=2")
	open, _ := ParseSchedule("sim:tps=100,contention=0.5")
	for _, c := range []struct {
		s       Schedule
		n       int
		perUser float64
	}{
		{slots, 1, 100}, {slots, 8, 100}, {slots, 16, 50}, {slots, 32, 25},
		{gpu, 1, 100}, {gpu, 2, 100 / 1.5}, {gpu, 4, 100 / 3.0},
		{open, 1, 100}, {open, 3, 50}, {open, 0, 100},
	} {
		if got := c.s.PerUserTPS(c.n); math.Abs(got-c.perUser) > 1e-9 {
			t.Errorf("%+v at n=%d: per user %v, want %v", c.s, c.n, got, c.perUser)
		}
		if got, want := c.s.AggregateTPS(c.n), float64(max(c.n, 1))*c.perUser; math.Abs(got-want) > 1e-9 {
			t.Errorf("n=%d: aggregate %v, want %v", c.n, got, want)
		}
	}
}

// The profiles keep their documented shapes: the gpu's is the seed's (one
// user, then 64 users each 1.28× slower, about 50× the aggregate), the
// wafer and the lpu barely slow within their few slots and gain nothing
// past them.
func TestProfileBatching(t *testing.T) {
	gpu, _ := ParseSchedule("sim:gpu")
	if ratio := gpu.AggregateTPS(64) / gpu.AggregateTPS(1); ratio < 48 || ratio > 52 {
		t.Errorf("gpu: aggregate at 64 users is %.1f× one user's, want about 50× (30 → 1,500 tok/s)", ratio)
	}
	for _, name := range []string{"wafer", "lpu"} {
		s, _ := ParseSchedule("sim:" + name)
		if slow := s.Slowdown(s.Batch); slow > 1.5 {
			t.Errorf("%s: %.2f× slower with its %d slots full, want barely", name, slow, s.Batch)
		}
		if gain := s.AggregateTPS(2*s.Batch) / s.AggregateTPS(s.Batch); math.Abs(gain-1) > 1e-9 {
			t.Errorf("%s: doubling past %d slots gains %.3f×, want nothing", name, s.Batch, gain)
		}
	}
}

// n streams of one batched model, started together, each stream at
// PerUserTPS(n) as the client reads it: inside the batch (contention) and
// past it (shared slots). Wall-clock speeds: testenv.Timed's rule.
func TestBatchPaces(t *testing.T) {
	s := startServer(t, Options{})
	const model = "sim:ttft=0s,tps=400,tokens=61,contention=0.5,batch=2"
	sched, _ := ParseSchedule(model)
	testenv.Timed(t, func(a *testenv.Attempt) {
		for _, n := range []int{1, 2, 4} {
			speeds := make([]float64, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					resp, sent := post(t, context.Background(), s, chatBody(model, nil))
					lines, err := readLines(resp, sent)
					if err != nil {
						t.Error(err)
						return
					}
					texts := textEvents(events(t, lines))
					span := texts[len(texts)-1].at - texts[0].at
					speeds[i] = float64(len(texts)-1) / span.Seconds()
				})
			}
			wg.Wait()
			for i, got := range speeds {
				a.Within(fmt.Sprintf("n=%d stream %d's speed", n, i), got, sched.PerUserTPS(n), 0.05, "tok/s")
			}
		}
	})
}
