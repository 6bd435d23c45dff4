package probes

import (
	"testing"
	"time"
)

func TestWakeGap(t *testing.T) {
	for _, c := range []struct{ elapsed, want time.Duration }{
		{0, 5 * time.Millisecond},
		{999 * time.Millisecond, 5 * time.Millisecond},
		{time.Second, 10 * time.Millisecond},
		{2900 * time.Millisecond, 10 * time.Millisecond},
		{3 * time.Second, 20 * time.Millisecond},
		{7 * time.Second, 40 * time.Millisecond},
		{time.Hour, 40 * time.Millisecond},
	} {
		if got := wakeGap(c.elapsed); got != c.want {
			t.Errorf("wakeGap(%v) = %v, want %v", c.elapsed, got, c.want)
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
