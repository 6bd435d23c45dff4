package metrics

import (
	"maps"
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
// least-squares slope of TTFT against input tokens over the points. ok is
// false without two different sizes, or when TTFT does not grow with the
// input (a slope of 0 or less: no prefill cost can be seen).
func PrefillTPS(points []PrefillPoint) (tps float64, ok bool) {
	n := float64(len(points))
	var sx, sy float64
	for _, p := range points {
		sx += float64(p.InputTokens)
		sy += p.TTFT.Seconds()
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for _, p := range points {
		dx := float64(p.InputTokens) - mx
		sxx += dx * dx
		sxy += dx * (p.TTFT.Seconds() - my)
	}
	if len(points) < 2 || sxx == 0 || sxy <= 0 {
		return 0, false
	}
	return sxx / sxy, true
}

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
func ConversationTime(turns []Run) (total time.Duration, ok bool) {
	for _, t := range turns {
		if !t.E2E.Has() {
			return 0, false
		}
		total += t.E2E.P50
	}
	return total, len(turns) > 0
}
