package report

import (
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
)

// The table and the Markdown say what each llama.cpp server measured of
// itself: prefill, decode, and decode against the box's memory limit, or
// that the model fits in the cache.
func TestServerNotes(t *testing.T) {
	stream := func(name string, decode float64) probes.Result {
		var r probes.Result
		for i := range 3 {
			r.Events.Append(probes.Event{At: time.Duration(100+26*i) * time.Millisecond, Content: "word ", Tokens: 1})
		}
		r.Provider, r.Model, r.End, r.FinishReason = name, "qwen", 160*time.Millisecond, "stop"
		r.Timings = &probes.ServerTimings{PredictedN: 3, PredictedPerSecond: decode, PromptN: 40, PromptPerSecond: 500}
		return r
	}
	cfg := &config.Config{Prompt: "Say something.", MaxTokens: 3, Providers: []config.Provider{
		{Name: "big", Kind: config.KindLlamaCpp, Model: "qwen", Box: &config.Box{MemoryBandwidth: 212e9, CacheBytes: 32 << 20, DecodeBytes: 4e9}},
		{Name: "tiny", Kind: config.KindLlamaCpp, Model: "qwen", Box: &config.Box{MemoryBandwidth: 212e9, CacheBytes: 1 << 20, DecodeBytes: 600 << 10}},
	}}
	b := Of(benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: [][][]probes.Result{{{stream("big", 38)}, {stream("tiny", 2000)}}}}))
	for _, as := range []string{"table", "markdown"} {
		var out strings.Builder
		if err := b.Write(&out, as); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"big (the server's own): prefill 500 tok/s · decode 38.0 tok/s · 72% of this box's memory limit (53.0 tok/s).",
			"tiny (the server's own): prefill 500 tok/s · decode 2,000 tok/s · model fits in the CPU cache (0.6 MB ≤ 1.0 MB).",
		} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: no %q in\n%s", as, want, out.String())
			}
		}
	}
}
