package metrics

import (
	"math"
	"testing"

	"tpsrace/config"
)

func TestMemoryRoofline(t *testing.T) {
	// 4 GB of weights a token on a 212 GB/s box: at most 53 tok/s.
	box := &config.Box{MemoryBandwidth: 212e9, CacheBytes: 32 << 20, DecodeBytes: 4e9}
	r, ok := MemoryRoofline(38, true, box)
	if !ok || r.InCache || math.Abs(r.LimitTPS-53) > 1e-9 || math.Abs(r.Share-38.0/53) > 1e-9 {
		t.Fatalf("MemoryRoofline = %+v, %v", r, ok)
	}
	if got, want := r.Phrase(), "72% of this box's memory limit (53.0 tok/s)"; got != want {
		t.Errorf("Phrase = %q, want %q", got, want)
	}

	small := &config.Box{MemoryBandwidth: 212e9, CacheBytes: 1 << 20, DecodeBytes: 600 << 10}
	r, ok = MemoryRoofline(2000, true, small)
	if !ok || !r.InCache || r.Share != 0 || r.LimitTPS != 0 {
		t.Errorf("a model in cache: %+v, %v", r, ok)
	}
	if got, want := r.Phrase(), "model fits in the CPU cache (0.6 MB ≤ 1.0 MB)"; got != want {
		t.Errorf("Phrase = %q, want %q", got, want)
	}
	// In cache needs no decode speed: it is a fact of the box.
	if r, ok := MemoryRoofline(0, false, small); !ok || !r.InCache {
		t.Errorf("in cache, no decode speed: %+v, %v", r, ok)
	}

	// Cache not known: a percentage, since the model may or may not fit.
	if r, ok := MemoryRoofline(2000, true, &config.Box{MemoryBandwidth: 212e9, DecodeBytes: 600 << 10}); !ok || r.InCache || r.Share <= 0 {
		t.Errorf("cache not known: %+v, %v", r, ok)
	}

	// A bandwidth measured while disturbed is low, so the share is an upper bound.
	disturbed := *box
	disturbed.BandwidthDisturbed = true
	if r, _ := MemoryRoofline(38, true, &disturbed); r.Phrase() != "≤72% of this box's memory limit (53.0 tok/s; probe disturbed)" {
		t.Errorf("disturbed: Phrase = %q", r.Phrase())
	}
	// A decode faster than the limit proves the bandwidth was measured
	// low (seen: 2.8 GB/s under the race detector): no share is shown.
	slow := &config.Box{MemoryBandwidth: 2.8e9, CacheBytes: 32 << 20, DecodeBytes: 1e9}
	r, ok = MemoryRoofline(13.3, true, slow)
	if !ok || !r.BandwidthLow || r.InCache {
		t.Errorf("decode above the limit: %+v, %v, want BandwidthLow", r, ok)
	}
	if got, want := r.Phrase(), "bandwidth probe read low: decode beats its limit (2.80 tok/s)"; got != want {
		t.Errorf("Phrase = %q, want %q", got, want)
	}
	if r, _ := MemoryRoofline(2.8, true, slow); r.BandwidthLow || r.Share != 1 {
		t.Errorf("decode exactly at the limit: %+v, want a share of 100%%", r)
	}

	undefined := []struct {
		name string
		tps  float64
		has  bool
		box  *config.Box
	}{
		{"no box", 38, true, nil},
		{"no decode bytes", 38, true, &config.Box{MemoryBandwidth: 212e9}},
		{"no bandwidth", 38, true, &config.Box{DecodeBytes: 4e9}},
		{"no decode speed", 0, false, box},
	}
	for _, tc := range undefined {
		if r, ok := MemoryRoofline(tc.tps, tc.has, tc.box); ok {
			t.Errorf("%s: %+v, want undefined", tc.name, r)
		}
	}
}

func TestBoxLine(t *testing.T) {
	got := BoxLine(config.Box{MemoryBandwidth: 12.2e9, CacheBytes: 32 << 20, DecodeBytes: 4.4e9})
	if want := "memory 12.2 GB/s · CPU cache 32 MB · a decode step reads 4.1 GB"; got != want {
		t.Errorf("BoxLine = %q, want %q", got, want)
	}
	if got := BoxLine(config.Box{MemoryBandwidth: 4.7e9, BandwidthDisturbed: true}); got != "memory 4.7 GB/s (measured while disturbed: low)" {
		t.Errorf("BoxLine of a disturbed bandwidth = %q", got)
	}
	if got := BoxLine(config.Box{DecodeBytes: 600 << 10}); got != "a decode step reads 0.6 MB" {
		t.Errorf("BoxLine without bandwidth or cache = %q", got)
	}
}
