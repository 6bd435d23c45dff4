package metrics

import (
	"maps"
	"math"
	"slices"
	"time"

	"tpsrace/probes"
)

// InputTokens is a long-context stream's prompt size: the provider's
// usage.prompt_tokens, else the o200k count of the prompt sent; 0 for a
// stream of another workload (its prompt was not padded).
func InputTokens(r *probes.Result) int {
	if r.InputTokens == 0 {
		return 0
	}
	if r.Usage != nil && r.Usage.PromptTokens > 0 {
		return r.Usage.PromptTokens
	}
	return r.InputTokens
}

// PrefillPoint is one stream's prompt size and TTFT.
type PrefillPoint struct {
	InputTokens int
	TTFT        time.Duration
}

// PrefillTPS is the prefill speed estimate, in input tokens per second:
// TTFT grows as base + input tokens ÷ prefill speed, so it is 1 ÷ the
// least-squares slope of TTFT against input tokens over the points.
//
// A number the data cannot support is no estimate: why says which test it
// failed ("" exactly when tps is an estimate). The points must show the
// growth, not noise:
//   - a TTFT at two different sizes at least (else PrefillNoTTFT,
//     PrefillOneSize), and a slope above 0;
//   - the fitted TTFT must grow over the sweep (smallest to largest size) by
//     at least MinPrefillGrowth of its fitted value at the smallest size:
//     less is what jitter or a scheduling hiccup alone produces, and its
//     inverse would be a meaningless, huge speed (else PrefillFlat);
//   - with three points or more, whose residuals measure the noise, the
//     slope's standard error must be at most MaxPrefillError of the slope
//     (else PrefillNoisy). Two points (one stream at each of two sizes)
//     leave no residual, so only the growth test applies to them.
func PrefillTPS(points []PrefillPoint) (tps float64, why NoPrefill) {
	n := float64(len(points))
	if len(points) == 0 {
		return 0, PrefillNoTTFT
	}
	var sx, sy float64
	lo, hi := points[0].InputTokens, points[0].InputTokens
	for _, p := range points {
		sx += float64(p.InputTokens)
		sy += p.TTFT.Seconds()
		lo, hi = min(lo, p.InputTokens), max(hi, p.InputTokens)
	}
	if lo == hi {
		return 0, PrefillOneSize
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for _, p := range points {
		dx := float64(p.InputTokens) - mx
		sxx += dx * dx
		sxy += dx * (p.TTFT.Seconds() - my)
	}
	if sxy <= 0 {
		return 0, PrefillFlat
	}
	slope := sxy / sxx
	intercept := my - slope*mx
	growth, atSmallest := slope*float64(hi-lo), intercept+slope*float64(lo)
	if growth < MinPrefillGrowth*atSmallest {
		return 0, PrefillFlat
	}
	if len(points) > 2 {
		var rss float64
		for _, p := range points {
			r := p.TTFT.Seconds() - intercept - slope*float64(p.InputTokens)
			rss += r * r
		}
		if stdErr := math.Sqrt(rss / (n - 2) / sxx); stdErr > MaxPrefillError*slope {
			return 0, PrefillNoisy
		}
	}
	return 1 / slope, ""
}

// NoPrefill is why PrefillTPS made no estimate, in the word or two a table
// cell holds: the leaderboard's "prefill tok/s" and the workload panel say
// it after "-" ("- flat").
type NoPrefill string

// PrefillTPS's reasons, one per test.
const (
	PrefillNoTTFT  NoPrefill = "no TTFT" // no stream of a size had a first token
	PrefillOneSize NoPrefill = "1 size"  // one size raced so far: no slope to fit
	PrefillFlat    NoPrefill = "flat"    // TTFT did not grow with the input beyond MinPrefillGrowth
	PrefillNoisy   NoPrefill = "noisy"   // the slope's standard error is above MaxPrefillError of it
)

// The thresholds of PrefillTPS. A TTFT that grows by a tenth over the sweep
// is a visible cost of the input, beyond the jitter of a network's first
// byte; a standard error of a fifth of the slope still gives "≈" its first
// digit.
const (
	MinPrefillGrowth = 0.10
	MaxPrefillError  = 0.20
)

// SizeTTFT is the TTFT of the streams of one prompt size.
type SizeTTFT struct {
	InputTokens int
	TTFT        Dist[time.Duration]
}

// TTFTBySize groups the streams with an input size (long-context) by it,
// smallest first: a sweep's TTFT per size.
func TTFTBySize(streams []Stream) []SizeTTFT {
	bySize := map[int][]time.Duration{}
	for _, s := range streams {
		if s.InputTokens > 0 && s.HasTTFT {
			bySize[s.InputTokens] = append(bySize[s.InputTokens], s.TTFT)
		}
	}
	var out []SizeTTFT
	for _, size := range slices.Sorted(maps.Keys(bySize)) {
		out = append(out, SizeTTFT{size, DistOf(bySize[size])})
	}
	return out
}

// ConversationTime is what the user of a multi-turn race waited: the sum
// over its turns, in order, of each turn's median E2E (turns: one Run per
// turn's race). ok is false when some turn had no completed stream: the
// conversation never finished.
func ConversationTime(turns []Summary) (total time.Duration, ok bool) {
	for _, t := range turns {
		if !t.E2E.Has() {
			return 0, false
		}
		total += t.E2E.P50
	}
	return total, len(turns) > 0
}
