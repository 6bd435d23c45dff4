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
