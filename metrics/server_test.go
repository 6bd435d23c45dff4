package metrics

import "testing"

func TestServerCountedTPS(t *testing.T) {
	if tps, ok := ServerCountedTPS(900, 0.75); !ok || tps != 1200 {
		t.Errorf("ServerCountedTPS(900, 0.75) = %v, %v; want 1200, true", tps, ok)
	}
	if _, ok := ServerCountedTPS(0, 0); ok {
		t.Error("ServerCountedTPS(0, 0) is defined: no generation time was counted")
	}
}
