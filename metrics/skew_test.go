package metrics

import (
	"testing"
	"time"
)

func TestStartSkew(t *testing.T) {
	us := time.Microsecond
	if skew, ok := StartSkew([]time.Duration{40 * us, 12 * us, 31 * us}); !ok || skew != 28*us {
		t.Errorf("skew %v, %v; want 28µs (latest 40µs − earliest 12µs)", skew, ok)
	}
	if _, ok := StartSkew([]time.Duration{5 * us}); ok {
		t.Error("one stream has no skew")
	}
}

func TestCrossHostSkew(t *testing.T) {
	ms := time.Millisecond
	skew, bound, ok := CrossHostSkew([]time.Duration{ms / 2, 2300 * time.Microsecond, ms}, []time.Duration{400 * time.Microsecond, 500 * time.Microsecond, 5 * ms})
	if !ok || skew != 1800*time.Microsecond || bound != 900*time.Microsecond {
		t.Errorf("skew %s ± %s (%v), want 1.8ms ± 0.9ms: the earliest and latest hosts' errors", skew, bound, ok)
	}
	if _, _, ok := CrossHostSkew([]time.Duration{ms}, []time.Duration{ms}); ok {
		t.Error("one host has no skew")
	}
}
