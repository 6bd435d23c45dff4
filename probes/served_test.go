package probes_test

import (
	"context"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
)

// The simulator reports cached prompt tokens and names who served the
// answer as real providers do; the probe records exactly what it was told.
func TestCachedPromptAndServedModel(t *testing.T) {
	url := startSim(t)
	const prompt = "Explain how a CPU cache works in three paragraphs." // more prompt tokens than cached=5
	for _, tc := range []struct {
		model      string
		cached     *int
		cacheN     int
		served     probes.Served
		hasTimings bool
	}{
		{model: "sim:ttft=1ms,tps=5000,tokens=10", served: probes.Served{Model: "sim:ttft=1ms,tps=5000,tokens=10", Fingerprint: "tpsrace-sim"}},
		{model: "sim:ttft=1ms,tps=5000,tokens=10,cached=5", cached: some(5),
			served: probes.Served{Model: "sim:ttft=1ms,tps=5000,tokens=10,cached=5", Fingerprint: "tpsrace-sim"}},
		{model: "sim:ttft=1ms,tps=5000,tokens=10,cached=5,timings=1,usage=finish", cached: some(5), cacheN: 5, hasTimings: true,
			served: probes.Served{Model: "sim:ttft=1ms,tps=5000,tokens=10,cached=5,timings=1,usage=finish", Fingerprint: "tpsrace-sim"}},
		{model: "sim:ttft=1ms,tps=5000,tokens=10,served=gpt-4o-mini,fingerprint=fp_b,route=Together",
			served: probes.Served{Model: "gpt-4o-mini", Fingerprint: "fp_b", Provider: "Together"}},
	} {
		t.Run(tc.model, func(t *testing.T) {
			p := config.Provider{Name: "sim", Model: tc.model, BaseURL: url}
			res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: prompt, MaxTokens: 100}}.Run(context.Background(), nil)[0][0]
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			if res.Served != tc.served {
				t.Errorf("served = %+v, want %+v", res.Served, tc.served)
			}
			got := res.Usage.CachedPromptTokens
			if (got == nil) != (tc.cached == nil) || got != nil && *got != *tc.cached {
				t.Errorf("cached prompt tokens = %v, want %v", got, tc.cached)
			}
			if (res.Timings != nil) != tc.hasTimings {
				t.Fatalf("timings = %+v", res.Timings)
			}
			if res.Timings != nil && (res.Timings.CacheN != tc.cacheN || res.Timings.PromptN != res.Usage.PromptTokens-tc.cacheN) {
				t.Errorf("timings cache_n %d prompt_n %d, want %d and the rest of %d", res.Timings.CacheN, res.Timings.PromptN, tc.cacheN, res.Usage.PromptTokens)
			}
		})
	}
}

func some(n int) *int { return &n }
