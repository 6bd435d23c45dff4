package metrics

import (
	"fmt"
	"strings"

	"tpsrace/config"
	"tpsrace/format"
)

// Roofline is a llama.cpp lane's decode speed against its machine's memory
// limit. A decode step reads every weight it uses once from memory
// (config.Box.DecodeBytes), so no server on that machine decodes one
// stream faster than bandwidth ÷ bytes per token: LimitTPS. Share is the
// server's decode speed (timings.predicted_per_second, per stream) over
// that limit. Several slots decode in one step and share its reads, so the
// limit holds per stream, not for their sum.
//
// A model whose decode bytes fit in the last-level cache (one instance of
// it, Box.CacheBytes) is not read from memory at all: InCache, and
// LimitTPS and Share are 0, since a percentage of a limit that does not
// apply means nothing.
//
// A decode faster than the limit proves the bandwidth was measured low
// (another process's memory traffic, the race detector's instrumented
// copies): BandwidthLow, and Share is not a share of anything, so no view
// shows it. A bandwidth measured while disturbed (Box.BandwidthDisturbed)
// can only be low, so its Share is an upper bound.
type Roofline struct {
	InCache      bool
	BandwidthLow bool    // the decode beat LimitTPS: the measured bandwidth is wrong
	LimitTPS     float64 // tokens per second the memory bandwidth allows one stream
	Share        float64 // decode speed ÷ LimitTPS: 0.71 for 71%; above 1 only with BandwidthLow
	Box          config.Box
}

// MemoryRoofline is the roofline of a decode speed decodeTPS (hasDecode
// false when the server reported none) on box. ok is false when it is not
// defined: no box, no decode bytes, or no bandwidth or decode speed for a
// model not known to fit in the cache.
func MemoryRoofline(decodeTPS float64, hasDecode bool, box *config.Box) (r Roofline, ok bool) {
	if box == nil || box.DecodeBytes <= 0 {
		return r, false
	}
	r.Box = *box
	if box.CacheBytes > 0 && box.DecodeBytes <= box.CacheBytes {
		r.InCache = true
		return r, true
	}
	if box.MemoryBandwidth <= 0 || !hasDecode || decodeTPS <= 0 {
		return r, false
	}
	r.LimitTPS = box.MemoryBandwidth / float64(box.DecodeBytes)
	r.Share = decodeTPS / r.LimitTPS
	r.BandwidthLow = r.Share > 1
	return r, true
}

// Phrase says it for people: "71% of this box's memory limit (53 tok/s)",
// "≤71% …; probe disturbed" from a disturbed bandwidth, "model fits in the CPU cache
// (0.6 MB ≤ 1.0 MB)", or, when the decode beat the limit, that the
// bandwidth was measured low; short enough for a lane.
func (r Roofline) Phrase() string {
	switch {
	case r.InCache:
		return fmt.Sprintf("model fits in the CPU cache (%s ≤ %s)", megabytes(r.Box.DecodeBytes), megabytes(r.Box.CacheBytes))
	case r.BandwidthLow:
		return fmt.Sprintf("bandwidth probe read low: decode beats its limit (%s tok/s)", format.TPS(r.LimitTPS))
	case r.Box.BandwidthDisturbed:
		return fmt.Sprintf("≤%.0f%% of this box's memory limit (%s tok/s; probe disturbed)", 100*r.Share, format.TPS(r.LimitTPS))
	}
	return fmt.Sprintf("%.0f%% of this box's memory limit (%s tok/s)", 100*r.Share, format.TPS(r.LimitTPS))
}

// BoxLine says what a roofline rests on, leaving out what is not known:
// "memory 12.2 GB/s · CPU cache 32 MB · a decode step reads 4.1 GB".
func BoxLine(b config.Box) string {
	var parts []string
	switch {
	case b.MemoryBandwidth > 0 && b.BandwidthDisturbed:
		parts = append(parts, fmt.Sprintf("memory %.1f GB/s (measured while disturbed: low)", b.MemoryBandwidth/1e9))
	case b.MemoryBandwidth > 0:
		parts = append(parts, fmt.Sprintf("memory %.1f GB/s", b.MemoryBandwidth/1e9))
	}
	if b.CacheBytes > 0 {
		parts = append(parts, "CPU cache "+megabytes(b.CacheBytes))
	}
	if b.DecodeBytes > 0 {
		parts = append(parts, "a decode step reads "+megabytes(b.DecodeBytes))
	}
	return strings.Join(parts, " · ")
}

// megabytes: "0.6 MB", "32 MB", "4.1 GB".
func megabytes(n int64) string {
	switch mb := float64(n) / (1 << 20); {
	case mb >= 1024:
		return fmt.Sprintf("%.1f GB", mb/1024)
	case mb >= 10:
		return fmt.Sprintf("%.0f MB", mb)
	default:
		return fmt.Sprintf("%.1f MB", mb)
	}
}
