package probes

import (
	"runtime"
	"testing"
	"time"
)

func TestWakeGap(t *testing.T) {
	for _, c := range []struct{ raced, want time.Duration }{
		{0, 5 * time.Millisecond},
		{999 * time.Millisecond, 5 * time.Millisecond},
		{time.Second, 10 * time.Millisecond},
		{2900 * time.Millisecond, 10 * time.Millisecond},
		{3 * time.Second, 20 * time.Millisecond},
		{7 * time.Second, 40 * time.Millisecond},
		{time.Hour, 40 * time.Millisecond},
	} {
		if got := wakeGap(c.raced); got != c.want {
			t.Errorf("wakeGap(%v) = %v, want %v", c.raced, got, c.want)
		}
	}
}

// The p95 weighs each sample by the gap it stands for: with equal gaps it
// is the ⌈0.95·n⌉-th delay; late, sparse samples count for their time.
func TestWakeP95(t *testing.T) {
	start := time.Now()
	var wakes []wake
	for k := range 20 {
		wakes = append(wakes, wake{due: start.Add(time.Duration(k) * 5 * time.Millisecond), gap: 5 * time.Millisecond, delay: time.Duration(20-k) * time.Millisecond})
	}
	if got := wakeP95(wakes, start); got != 19*time.Millisecond {
		t.Errorf("20 equal gaps: p95 %v, want the 19th delay, 19ms", got)
	}
	if got := wakeP95(wakes, start.Add(time.Hour)); got != 0 {
		t.Errorf("no sample from the release on: p95 %v, want 0 (not measured)", got)
	}
	// A second of 200 quick wakes, then 10 slow ones 40 ms apart: 400 of
	// the 1,400 ms the samples stand for were slow, far over 5%.
	wakes = nil
	for k := range 200 {
		wakes = append(wakes, wake{due: start.Add(time.Duration(k) * 5 * time.Millisecond), gap: 5 * time.Millisecond, delay: 100 * time.Microsecond})
	}
	for k := range 10 {
		wakes = append(wakes, wake{due: start.Add(time.Second + time.Duration(k)*40*time.Millisecond), gap: 40 * time.Millisecond, delay: 3 * time.Millisecond})
	}
	if got := wakeP95(wakes, start); got != 3*time.Millisecond {
		t.Errorf("slow sparse samples: p95 %v, want 3ms", got)
	}
}

// wakeSources are the two ways a probe samples: the timer fd where the
// kernel has one (startWakeProbe on Linux), the pipe elsewhere.
var wakeSources = []struct {
	name  string
	start func() *wakeProbe
}{{"startWakeProbe", startWakeProbe}, {"pipe", startPipeProbe}}

// A fleet race's probe starts before its release, seconds before with
// --start-at: its gap grows from the release, so the race's first second
// is sampled every wakeEvery all the same.
func TestWakeGapGrowsFromTheRelease(t *testing.T) {
	for _, src := range wakeSources {
		t.Run(src.name, func(t *testing.T) {
			t.Parallel()
			p := src.start()
			if p == nil {
				t.Fatal("no file for the wake probe")
			}
			time.Sleep(1100 * time.Millisecond) // waiting for --start-at
			release := time.Now()
			p.release(release)
			time.Sleep(100 * time.Millisecond)
			p.stop(release)
			if len(p.wakes) == 0 {
				t.Fatal("no samples")
			}
			for _, w := range p.wakes {
				if w.gap != wakeEvery {
					t.Fatalf("a sample %v after the probe started has gap %v, want %v: the gap grew before the release", w.due.Sub(p.wakes[0].due), w.gap, wakeEvery)
				}
			}
		})
	}
}

// A reader that cannot run is seen late, whichever way the probe samples:
// with one P held by a goroutine that never yields, the probe's reader
// runs only when the spinner is preempted (about every 10 ms), so one
// sample in twenty is late by far more than the 5 ms gap's quarter.
func TestWakeProbeSeesAClientThatCannotRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, src := range wakeSources {
		t.Run(src.name, func(t *testing.T) {
			p := src.start()
			if p == nil {
				t.Fatal("no file for the wake probe")
			}
			release := time.Now()
			p.release(release)
			for time.Since(release) < 300*time.Millisecond { // spin
			}
			if p95 := p.stop(release); p95 < 2*time.Millisecond {
				t.Errorf("wake p95 %v with the only P spinning for 300 ms, want 2ms or more (%d samples)", p95, len(p.wakes))
			}
		})
	}
}

// BenchmarkWakeProbe is what one wake probe sample costs the process: its
// CPU time (getrusage) over a probe left alone for b.N gaps, per sample,
// the process otherwise idle, so each sample wakes it
// (docs/METRICS.md, "The client's own load").
func BenchmarkWakeProbe(b *testing.B) {
	for _, src := range wakeSources {
		b.Run(src.name, func(b *testing.B) {
			p := src.start()
			if p == nil {
				b.Fatal("no file for the wake probe")
			}
			began, cpu := time.Now(), processCPU()
			time.Sleep(time.Duration(b.N) * wakeEvery)
			used := processCPU() - cpu
			p.stop(began)
			if len(p.wakes) > 0 {
				b.ReportMetric(float64(used.Microseconds())/float64(len(p.wakes)), "cpu-µs/sample")
			}
		})
	}
}
