package live

import (
	"math"
	"time"

	"tpsrace/metrics"
)

// Scale is the tok/s axis every lane's sparkline shares, so one height
// means one speed in every lane: 25 tok/s draws low and 1,800 tok/s high.
// It is logarithmic from LogFloor up when the lanes' peaks span more than
// LogSpan (a linear axis would flatten the slow lanes to nothing), linear
// from zero otherwise.
type Scale struct {
	Top float64 // tok/s at full height: the fastest lane's peak, at least reading speed
	Log bool
}

// Thresholds of the shared scale.
const (
	LogSpan  = 10.0 // fastest ÷ slowest peak above which the scale is logarithmic
	LogFloor = 1.0  // tok/s at zero height on the logarithmic scale
)

// SharedScale is the scale of every provider's live tok/s (Series) up to
// until: the peaks of those that streamed set its top and whether it is
// logarithmic.
func SharedScale(providers []*Lane, until time.Duration) Scale {
	top, low := metrics.ReadingTPS, math.Inf(1)
	for _, p := range providers {
		peak := 0.0
		for _, v := range p.Series(until) {
			peak = max(peak, v)
		}
		if peak > 0 {
			top, low = max(top, peak), min(low, peak)
		}
	}
	return Scale{Top: top, Log: top > LogSpan*low}
}

// Progress is how far along the track f is, from 0 to 1.
func Progress(f Snapshot, finish int) float64 {
	if finish <= 0 {
		return 0
	}
	return min(float64(f.UserTokens)/float64(finish), 1)
}

// Fraction is where v sits on the scale, from 0 (bottom) to 1 (top).
func (s Scale) Fraction(v float64) float64 {
	switch {
	case v <= 0 || s.Top <= 0:
		return 0
	case !s.Log:
		return min(v/s.Top, 1)
	case v <= LogFloor:
		return 0
	}
	return min(math.Log(v/LogFloor)/math.Log(s.Top/LogFloor), 1)
}

// FinishLine is where the race track ends, in per-user o200k tokens
// (Snapshot.UserTokens), the same for every lane: finishAt when set; else
// maxTokens, and once every provider has settled the longest answer (so
// the final picture fills the track when answers stop before max_tokens);
// else the longest answer so far. A lane past the line (finishAt, or an
// o200k count above max_tokens) draws at the line.
func FinishLine(finishAt, maxTokens int, figs []Snapshot) int {
	longest, settled := 0, true
	for _, f := range figs {
		longest = max(longest, f.UserTokens)
		settled = settled && f.Settled
	}
	switch {
	case finishAt > 0:
		return finishAt
	case maxTokens > 0 && !settled:
		return maxTokens
	}
	return max(longest, 1)
}
