package watch

import (
	"maps"

	"github.com/prometheus/client_golang/prometheus"

	"tpsrace/benchdoc"
)

// workloadGauges name the workloads' headline figures (README's figures
// table) exported as gauges, with their help.
var workloadGauges = []struct{ name, help string }{
	{"tpsrace_last_tool_call_first_seconds", "tool-call: median time to the first tool-call delta of the provider's last run."},
	{"tpsrace_last_tool_call_complete_seconds", "tool-call: median time to a complete call whose arguments validate, over the last run's valid calls."},
	{"tpsrace_last_tool_call_valid_ratio", "tool-call: share of the last run's streams whose call was valid (0-1)."},
	{"tpsrace_last_json_valid_seconds", "json: median time to an answer that parses and validates, over the last run's valid answers."},
	{"tpsrace_last_json_valid_ratio", "json: share of the last run's streams whose answer was valid JSON (0-1)."},
	{"tpsrace_last_prefill_tokens_per_second", "long-context: the prefill estimate of the last sweep (input tokens against TTFT, least squares)."},
	{"tpsrace_last_cold_ttft_seconds", "cached-prefix: median TTFT of the last run's cold requests."},
	{"tpsrace_last_warm_ttft_seconds", "cached-prefix: median TTFT of the last run's warm requests (the same prompt again)."},
	{"tpsrace_last_warm_cached_tokens", "cached-prefix: prompt tokens the provider said it served from cache on the last run's warm requests (median)."},
	{"tpsrace_last_conversation_seconds", "multi-turn: the last conversation's time, what the user waited (its turns' E2E added up)."},
}

// workloadFigures are a provider's workload gauges from its summary in a
// bench document, by name; nil where the run has no such figure.
func workloadFigures(s benchdoc.Summary) map[string]*float64 {
	seconds := func(ms *float64) *float64 {
		if ms == nil {
			return nil
		}
		return ptr(*ms / 1000)
	}
	share := func(n, of int) *float64 {
		if of == 0 {
			return nil
		}
		return ptr(float64(n) / float64(of))
	}
	f := map[string]*float64{}
	if t := s.ToolCall; t != nil {
		f["tpsrace_last_tool_call_first_seconds"] = seconds(t.FirstMS.P50)
		f["tpsrace_last_tool_call_complete_seconds"] = seconds(t.CompleteMS.P50)
		f["tpsrace_last_tool_call_valid_ratio"] = share(t.Valid, t.Streams)
	}
	if j := s.JSON; j != nil {
		f["tpsrace_last_json_valid_seconds"] = seconds(j.ValidMS.P50)
		f["tpsrace_last_json_valid_ratio"] = share(j.Valid, j.Streams)
	}
	if s.PrefillTPS != nil {
		f["tpsrace_last_prefill_tokens_per_second"] = *s.PrefillTPS
	}
	if c := s.PrefixCache; c != nil {
		f["tpsrace_last_cold_ttft_seconds"] = seconds(c.ColdTTFTms.P50)
		f["tpsrace_last_warm_ttft_seconds"] = seconds(c.WarmTTFTms.P50)
		f["tpsrace_last_warm_cached_tokens"] = c.CachedTokens
	}
	if c := s.ConversationMS; c != nil {
		f["tpsrace_last_conversation_seconds"] = seconds(c.P50)
	}
	return f
}

func ptr(v float64) *float64 { return &v }

// ObserveRun sets the workload and thinking gauges from b, the bench document of one
// run (a sweep, a cold and warm pair, a conversation, or one race) raced
// from probe: the series and `bench` of the same races never disagree. A
// figure the run does not have leaves its gauge at its last value, and a
// run cut short by a stop sets none: its figures cover part of the run.
func (e *Exporter) ObserveRun(probe string, b *benchdoc.Bench) {
	if b.Interrupted {
		return
	}
	for _, p := range b.Providers {
		l := prometheus.Labels{"provider": p.Name, "model": p.Model, "probe": probe}
		figures := workloadFigures(p.Summary)
		maps.Copy(figures, thinkingFigures(p.Summary))
		for name, v := range figures {
			if v != nil {
				e.workload[name].With(l).Set(*v)
			}
		}
	}
}
