package recording_test

import (
	"testing"
	"time"

	"tpsrace/recording"
	"tpsrace/timesync"
)

// The cross-host skew is bounded by the clocks of the earliest and latest
// hosts, and unknown, not invented, when any clock is unsynchronised.
func TestStartSkewOfAMergedRace(t *testing.T) {
	start := time.Date(2026, 12, 4, 15, 0, 0, 0, time.UTC)
	clock := func(ms float64) *timesync.State {
		return &timesync.State{Synchronised: true, EstError: time.Duration(ms * float64(time.Millisecond))}
	}
	h := recording.Header{StartAt: &start, Probes: []recording.Probe{
		{Name: "fra", Release: start.Add(200 * time.Microsecond), SentNS: int64(300 * time.Microsecond), Clock: clock(0.4)},
		{Name: "iad", Release: start.Add(2 * time.Millisecond), SentNS: int64(300 * time.Microsecond), Clock: clock(0.5)},
		{Name: "sin", Release: start.Add(time.Millisecond), SentNS: 0, Clock: clock(3)},
	}}
	if got, want := h.StartSkew(), "start skew 1.8 ms ± 0.9 ms across 3 probes"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	h.Probes[2].Clock = &timesync.State{Why: "STA_UNSYNC"}
	if got, want := h.StartSkew(), "start skew unknown across 3 probes (the clock of sin is not synchronised)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := (recording.Header{}).StartSkew(); got != "" {
		t.Errorf("a recording that is not merged: %q", got)
	}
}
