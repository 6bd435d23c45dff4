package probes

import (
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
		wakes = append(wakes, wake{sent: start.Add(time.Duration(k) * 5 * time.Millisecond), gap: 5 * time.Millisecond, delay: time.Duration(20-k) * time.Millisecond})
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
		wakes = append(wakes, wake{sent: start.Add(time.Duration(k) * 5 * time.Millisecond), gap: 5 * time.Millisecond, delay: 100 * time.Microsecond})
	}
	for k := range 10 {
		wakes = append(wakes, wake{sent: start.Add(time.Second + time.Duration(k)*40*time.Millisecond), gap: 40 * time.Millisecond, delay: 3 * time.Millisecond})
	}
	if got := wakeP95(wakes, start); got != 3*time.Millisecond {
		t.Errorf("slow sparse samples: p95 %v, want 3ms", got)
	}
}

// A fleet race's probe starts before its release, seconds before with
// --start-at: its gap grows from the release, so the race's first second
// is sampled every wakeEvery all the same.
func TestWakeGapGrowsFromTheRelease(t *testing.T) {
	p := startWakeProbe()
	if p == nil {
		t.Fatal("no pipe for the wake probe")
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
			t.Fatalf("a sample %v after the probe started has gap %v, want %v: the gap grew before the release", w.sent.Sub(p.wakes[0].sent), w.gap, wakeEvery)
		}
	}
}

// BenchmarkWakeProbe is what one wake probe sample costs the process: its
// CPU time (getrusage) over a probe left alone for b.N gaps, per sample,
// the process otherwise idle, so each sample wakes it
// (docs/METRICS.md, "The client's own load").
func BenchmarkWakeProbe(b *testing.B) {
	p := startWakeProbe()
	if p == nil {
		b.Fatal("no pipe for the wake probe")
	}
	began, cpu := time.Now(), processCPU()
	time.Sleep(time.Duration(b.N) * wakeEvery)
	used := processCPU() - cpu
	p.stop(began)
	if len(p.wakes) > 0 {
		b.ReportMetric(float64(used.Microseconds())/float64(len(p.wakes)), "cpu-µs/sample")
	}
}
