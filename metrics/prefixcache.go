package metrics

import "time"

// PrefixCache is the cached-prefix workload's figures over a provider's
// streams: TTFT of the cold requests (the prefix new to the provider) and
// of the warm ones (the same prompt again, at once), the saving, and the
// prompt tokens the warm requests' providers said they served from cache.
type PrefixCache struct {
	Cold, Warm Dist[time.Duration] // TTFT, over the streams with text
	// Saving: 1 − warm TTFT p50 ÷ cold TTFT p50 (0.9: the warm request's
	// first token came in a tenth of the time); HasSaving false without both.
	Saving    float64
	HasSaving bool
	// Cached: the warm streams' cached prompt tokens (CachedPrompt), over
	// those whose provider reported a cache figure.
	Cached Dist[float64]
}

// PrefixCacheOf the cold and the warm streams.
func PrefixCacheOf(cold, warm []Stream) PrefixCache {
	ttft := func(streams []Stream) Dist[time.Duration] {
		var v []time.Duration
		for _, s := range streams {
			if s.HasTTFT {
				v = append(v, s.TTFT)
			}
		}
		return DistOf(v)
	}
	c := PrefixCache{Cold: ttft(cold), Warm: ttft(warm)}
	var cached []float64
	for _, s := range warm {
		if s.HasCachedPromptTokens {
			cached = append(cached, float64(s.CachedPromptTokens))
		}
	}
	c.Cached = DistOf(cached)
	if c.Cold.Has() && c.Warm.Has() && c.Cold.P50 > 0 {
		c.Saving, c.HasSaving = 1-c.Warm.P50.Seconds()/c.Cold.P50.Seconds(), true
	}
	return c
}
