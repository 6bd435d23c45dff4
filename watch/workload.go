package watch

import (
	"github.com/prometheus/client_golang/prometheus"

	"tpsrace/benchdoc"
)

// workloadGauge is one figure of a workload as a gauge: the provider's
// figure in the bench document of the last run (bench's summary of the
// same races, so the series and `bench` never disagree). of is nil when
// the run has no such figure: the gauge keeps its last value.
type workloadGauge struct {
	vec *prometheus.GaugeVec
	of  func(benchdoc.Summary) *float64
}

// workloadGauges are the workloads' headline figures (README's figures
// table), in seconds, tokens per second, tokens and shares.
func workloadGauges() []workloadGauge {
	gauge := func(name, help string, of func(benchdoc.Summary) *float64) workloadGauge {
		return workloadGauge{prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels), of}
	}
	seconds := func(ms *float64) *float64 {
		if ms == nil {
			return nil
		}
		s := *ms / 1000
		return &s
	}
	share := func(n, of int) *float64 {
		if of == 0 {
			return nil
		}
		s := float64(n) / float64(of)
		return &s
	}
	return []workloadGauge{
		gauge("tpsrace_last_tool_call_first_seconds", "tool-call: median time to the first tool-call delta of the provider's last run.",
			func(s benchdoc.Summary) *float64 {
				return ifTool(s, func(t *benchdoc.ToolSummary) *float64 { return seconds(t.FirstMS.P50) })
			}),
		gauge("tpsrace_last_tool_call_complete_seconds", "tool-call: median time to a complete call whose arguments validate, over the last run's valid calls.",
			func(s benchdoc.Summary) *float64 {
				return ifTool(s, func(t *benchdoc.ToolSummary) *float64 { return seconds(t.CompleteMS.P50) })
			}),
		gauge("tpsrace_last_tool_call_valid_ratio", "tool-call: share of the last run's streams whose call was valid (0-1).",
			func(s benchdoc.Summary) *float64 {
				return ifTool(s, func(t *benchdoc.ToolSummary) *float64 { return share(t.Valid, t.Streams) })
			}),
		gauge("tpsrace_last_json_valid_seconds", "json: median time to an answer that parses and validates, over the last run's valid answers.",
			func(s benchdoc.Summary) *float64 {
				return ifJSON(s, func(j *benchdoc.JSONSummary) *float64 { return seconds(j.ValidMS.P50) })
			}),
		gauge("tpsrace_last_json_valid_ratio", "json: share of the last run's streams whose answer was valid JSON (0-1).",
			func(s benchdoc.Summary) *float64 {
				return ifJSON(s, func(j *benchdoc.JSONSummary) *float64 { return share(j.Valid, j.Streams) })
			}),
		gauge("tpsrace_last_prefill_tokens_per_second", "long-context: the prefill estimate of the last sweep (input tokens against TTFT, least squares).",
			func(s benchdoc.Summary) *float64 {
				if s.PrefillTPS == nil {
					return nil
				}
				return *s.PrefillTPS
			}),
		gauge("tpsrace_last_cold_ttft_seconds", "cached-prefix: median TTFT of the last run's cold requests.",
			func(s benchdoc.Summary) *float64 {
				return ifCache(s, func(c *benchdoc.PrefixCache) *float64 { return seconds(c.ColdTTFTms.P50) })
			}),
		gauge("tpsrace_last_warm_ttft_seconds", "cached-prefix: median TTFT of the last run's warm requests (the same prompt again).",
			func(s benchdoc.Summary) *float64 {
				return ifCache(s, func(c *benchdoc.PrefixCache) *float64 { return seconds(c.WarmTTFTms.P50) })
			}),
		gauge("tpsrace_last_warm_cached_tokens", "cached-prefix: prompt tokens the provider said it served from cache on the last run's warm requests (median).",
			func(s benchdoc.Summary) *float64 {
				return ifCache(s, func(c *benchdoc.PrefixCache) *float64 { return c.CachedTokens })
			}),
		gauge("tpsrace_last_conversation_seconds", "multi-turn: the last conversation's time, what the user waited (its turns' E2E added up).",
			func(s benchdoc.Summary) *float64 {
				if s.ConversationMS == nil {
					return nil
				}
				return seconds(s.ConversationMS.P50)
			}),
	}
}

func ifTool(s benchdoc.Summary, f func(*benchdoc.ToolSummary) *float64) *float64 {
	if s.ToolCall == nil {
		return nil
	}
	return f(s.ToolCall)
}

func ifJSON(s benchdoc.Summary, f func(*benchdoc.JSONSummary) *float64) *float64 {
	if s.JSON == nil {
		return nil
	}
	return f(s.JSON)
}

func ifCache(s benchdoc.Summary, f func(*benchdoc.PrefixCache) *float64) *float64 {
	if s.PrefixCache == nil {
		return nil
	}
	return f(s.PrefixCache)
}

// ObserveRun sets the workload gauges from b, the bench document of one
// run (a sweep, a cold and warm pair, a conversation, or one race) raced
// from probe. A run cut short by a stop sets none: its figures cover part
// of the run.
func (e *Exporter) ObserveRun(probe string, b *benchdoc.Bench) {
	if b.Interrupted {
		return
	}
	for _, p := range b.Providers {
		l := prometheus.Labels{"provider": p.Name, "model": p.Model, "probe": probe}
		for _, g := range e.workload {
			if v := g.of(p.Summary); v != nil {
				g.vec.With(l).Set(*v)
			}
		}
	}
}
