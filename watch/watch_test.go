package watch

import (
	"testing"
	"time"
)

func TestNextNeverOverlapsAndStaysWithinTheJitter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const interval = time.Minute
	for _, tc := range []struct {
		name string
		now  time.Time // when the race ended
		rnd  float64
		want time.Time
	}{
		{"middle of the jitter: exactly one interval", t0.Add(time.Second), 0.5, t0.Add(interval)},
		{"earliest: interval less 10%", t0.Add(time.Second), 0, t0.Add(54 * time.Second)},
		{"latest: interval plus 10%", t0.Add(time.Second), 1, t0.Add(66 * time.Second)},
		{"a race longer than the interval: the next starts at once", t0.Add(90 * time.Second), 0.5, t0.Add(90 * time.Second)},
	} {
		if got := next(t0, interval, tc.now, tc.rnd); !got.Equal(tc.want) {
			t.Errorf("%s: next = %s after the start, want %s", tc.name, got.Sub(t0), tc.want.Sub(t0))
		}
	}
}
