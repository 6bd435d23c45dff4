package metrics

import (
	"encoding/json"
	"testing"

	"tpsrace/config"
)

// A roofline writes itself as the bench JSON's memory_roofline (the bytes
// benchdoc wrote before the type wrote itself), and a document read back
// (watch's history) holds the same roofline to the JSON's precision.
func TestRooflineJSON(t *testing.T) {
	box := config.Box{MemoryBandwidth: 53e9, CacheBytes: 32 << 20, DecodeBytes: 1e9}
	tests := []struct {
		name      string
		decodeTPS float64
		box       config.Box
		want      string
	}{
		{"share", 38, box, `{"fits_in_cache":false,"bandwidth_measured_low":false,"limit_tps":53,"share":0.717,` +
			`"memory_bandwidth_bytes_per_s":53000000000,"last_level_cache_bytes":33554432,"decode_bytes_per_token":1000000000}`},
		{"bandwidth low", 60, box, `{"fits_in_cache":false,"bandwidth_measured_low":true,"limit_tps":null,"share":null,` +
			`"memory_bandwidth_bytes_per_s":53000000000,"last_level_cache_bytes":33554432,"decode_bytes_per_token":1000000000}`},
		{"in cache", 38, config.Box{MemoryBandwidth: 53e9, CacheBytes: 32 << 20, DecodeBytes: 1 << 20, BandwidthDisturbed: true},
			`{"fits_in_cache":true,"bandwidth_measured_low":false,"limit_tps":null,"share":null,` +
				`"memory_bandwidth_bytes_per_s":53000000000,"memory_bandwidth_disturbed":true,"last_level_cache_bytes":33554432,"decode_bytes_per_token":1048576}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := MemoryRoofline(tt.decodeTPS, true, &tt.box)
			if !ok {
				t.Fatal("no roofline")
			}
			raw, err := json.Marshal(r)
			if err != nil || string(raw) != tt.want {
				t.Fatalf("JSON %s (%v), want %s", raw, err, tt.want)
			}
			var back Roofline
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			again, _ := json.Marshal(back)
			if string(again) != tt.want || back.Box != tt.box || back.InCache != r.InCache || back.BandwidthLow != r.BandwidthLow {
				t.Errorf("read back as %+v, which writes %s", back, again)
			}
		})
	}
}
