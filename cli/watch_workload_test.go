package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tpsrace/benchdoc"
	"tpsrace/report"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// `watch --workload NAME` races every workload against the simulator, and
// its gauges of the workload's figures are the bench document's of the
// same races (the history line): one run each, a sweep, a cold and warm
// pair, a conversation.
func TestWatchExportsEachWorkloadsFigures(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	seconds := func(ms *float64) *float64 {
		if ms == nil {
			return nil
		}
		return ptrTo(*ms / 1000)
	}
	for _, tc := range []struct {
		workload string
		args     []string
		model    string
		gauges   func(benchdoc.Summary) map[string]*float64
	}{
		{"tool-call", nil, "sim:ttft=5ms,tps=2000", func(s benchdoc.Summary) map[string]*float64 {
			return map[string]*float64{"tpsrace_last_tool_call_first_seconds": seconds(s.ToolCall.FirstMS.P50),
				"tpsrace_last_tool_call_complete_seconds": seconds(s.ToolCall.CompleteMS.P50),
				"tpsrace_last_tool_call_valid_ratio":      ptrTo(float64(s.ToolCall.Valid) / float64(s.ToolCall.Streams))}
		}},
		{"json", nil, "sim:ttft=5ms,tps=2000", func(s benchdoc.Summary) map[string]*float64 {
			return map[string]*float64{"tpsrace_last_json_valid_seconds": seconds(s.JSON.ValidMS.P50),
				"tpsrace_last_json_valid_ratio": ptrTo(float64(s.JSON.Valid) / float64(s.JSON.Streams))}
		}},
		{"long-context", []string{"--input-tokens", "1000,4000"}, "sim:ttft=5ms,tps=2000,prefill=50000", func(s benchdoc.Summary) map[string]*float64 {
			return map[string]*float64{"tpsrace_last_prefill_tokens_per_second": *s.PrefillTPS}
		}},
		{"cached-prefix", []string{"--input-tokens", "2000"}, "sim:ttft=5ms,tps=2000,prefill=50000,prefixcache=1", func(s benchdoc.Summary) map[string]*float64 {
			return map[string]*float64{"tpsrace_last_cold_ttft_seconds": seconds(s.PrefixCache.ColdTTFTms.P50),
				"tpsrace_last_warm_ttft_seconds": seconds(s.PrefixCache.WarmTTFTms.P50), "tpsrace_last_warm_cached_tokens": s.PrefixCache.CachedTokens}
		}},
		{"multi-turn", nil, "sim:ttft=5ms,tps=2000,tokens=10", func(s benchdoc.Summary) map[string]*float64 {
			return map[string]*float64{"tpsrace_last_conversation_seconds": seconds(s.ConversationMS.P50)}
		}},
	} {
		t.Run(tc.workload, func(t *testing.T) {
			dir := t.TempDir()
			cfg := write(t, dir, "p.yaml", "max_tokens: 10\nproviders:\n  - {name: p, base_url: "+srv.URL()+`, model: "`+tc.model+`"}`+"\n")
			history := filepath.Join(dir, "h.jsonl")
			exposed, _ := scrapeWatch(t, 1, append([]string{"--config", cfg, "--workload", tc.workload, "--interval", "1h", "--history", history}, tc.args...)...)
			records, err := report.ReadRecords(history)
			if err != nil || len(records) != 1 || records[0].Workload != tc.workload {
				t.Fatalf("history: %d records (%v), want one %s run", len(records), err, tc.workload)
			}
			for name, want := range tc.gauges(records[0].Providers[0].Summary) {
				got, set := gaugeValue(exposed, name)
				if want == nil || !set || got != *want {
					t.Errorf("%s = %v (set %v), bench's figure %v", name, got, set, want)
				}
			}
		})
	}
}

// gaugeValue is the value of the one series of name in an exposition.
func gaugeValue(exposed, name string) (float64, bool) {
	for line := range strings.Lines(exposed) {
		if rest, ok := strings.CutPrefix(line, name+"{"); ok {
			_, value, _ := strings.Cut(rest, "} ")
			v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			return v, err == nil
		}
	}
	return 0, false
}

func ptrTo(v float64) *float64 { return &v }
