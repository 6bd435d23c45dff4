package metrics

import "tpsrace/workload"

// cached-prefix: the same long prompt twice in a row, cold then warm
// (PrefixCacheOf).
func init() {
	describe(Description{Workload: workload.CachedPrefix, Figures: func(workload.Workload) []Figure {
		return []Figure{
			{Header: "cold", Name: "cold TTFT", Key: "prefix_cache.cold_ttft_ms.p50", Gauge: "tpsrace_last_cold_ttft_seconds",
				Unit: Seconds, Help: "Median TTFT of the cold requests: the prefix new to the provider.",
				Of: func(wr WorkloadRuns) Reading { return dist(wr.PrefixCache.Cold) }},
			{Header: "warm", Name: "warm TTFT", Key: "prefix_cache.warm_ttft_ms.p50", Gauge: "tpsrace_last_warm_ttft_seconds",
				Unit: Seconds, Decides: true, Help: "Median TTFT of the warm requests: the same prompt again, at once.",
				Of: func(wr WorkloadRuns) Reading { return dist(wr.PrefixCache.Warm) }},
			{Header: "saving", Name: "the cache's saving", Key: "prefix_cache.saving", Gauge: "tpsrace_last_prefix_cache_saving_ratio",
				Unit: Share, Better: HigherIsBetter, Help: "1 − warm TTFT p50 ÷ cold TTFT p50.",
				Of: func(wr WorkloadRuns) Reading {
					return Reading{Value: wr.PrefixCache.Saving, OK: wr.PrefixCache.HasSaving}
				}},
			{Header: "cached", Name: "cached prompt tokens", Key: "prefix_cache.warm_cached_tokens", Gauge: "tpsrace_last_warm_cached_tokens",
				Unit: Tokens, Better: HigherIsBetter, Detail: true,
				Help: "Prompt tokens the provider said it served from its cache on the warm requests (median); undefined when it reports none.",
				Of: func(wr WorkloadRuns) Reading {
					return Reading{Value: wr.PrefixCache.Cached.P50, OK: wr.PrefixCache.Cached.Has()}
				}},
		}
	}, StepHeader: "request", Step: func(s workload.Step, _ int) string {
		if s.Warm {
			return "warm"
		}
		return "cold"
	}, Waiting: func(string) string { return "cold request raced · the warm request decides" }})
}
