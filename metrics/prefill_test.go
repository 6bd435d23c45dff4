package metrics

import (
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

func TestPrefillTPS(t *testing.T) {
	// TTFT = 200ms + tokens ÷ 12,000 tok/s, exactly.
	var points []PrefillPoint
	for _, n := range []int{1000, 8000, 32000} {
		points = append(points, PrefillPoint{n, 200*ms + time.Duration(float64(n)/12000*float64(time.Second))})
	}
	if got, ok := PrefillTPS(points); !ok || got < 11999.99 || got > 12000.01 {
		t.Errorf("prefill %v (%v), want 12,000 tok/s", got, ok)
	}
	for _, none := range [][]PrefillPoint{nil, points[:1], {{1000, 300 * ms}, {1000, 400 * ms}}, {{1000, 400 * ms}, {8000, 300 * ms}}} {
		if _, ok := PrefillTPS(none); ok {
			t.Errorf("%v: an estimate from no growth", none)
		}
	}
}

func TestInputTokensPrefersUsage(t *testing.T) {
	r := &probes.Result{InputTokens: 1000}
	if got := InputTokens(r); got != 1000 {
		t.Errorf("without usage: %d", got)
	}
	r.Usage = &probes.Usage{PromptTokens: 1012}
	if got := InputTokens(r); got != 1012 {
		t.Errorf("with usage: %d", got)
	}
	if got := InputTokens(&probes.Result{Usage: &probes.Usage{PromptTokens: 9}}); got != 0 {
		t.Errorf("a chat stream has no input size: %d", got)
	}
}

func TestTTFTBySize(t *testing.T) {
	s := func(n int, ttft time.Duration) Stream {
		return Stream{Figures: Figures{TTFT: ttft, HasTTFT: true}, InputTokens: n}
	}
	got := TTFTBySize([]Stream{s(8000, 900*ms), s(1000, 300*ms), s(8000, 700*ms), {}})
	if len(got) != 2 || got[0].InputTokens != 1000 || got[1].InputTokens != 8000 || got[1].TTFT.P50 != 800*ms {
		t.Errorf("%+v", got)
	}
}

// A padded prompt's provider that reports no usage is billed, and its
// prompt counted, at the padded size, not at the prompt as written.
func TestPaddedPromptWithoutUsage(t *testing.T) {
	r := &probes.Result{InputTokens: 8000, Price: &config.Price{InputPerMTok: 1}}
	r.Events.Append(probes.Event{At: 100 * ms, Content: "hi", Tokens: 1})
	if got := PromptEstimate(r, 12); got != 8000 {
		t.Errorf("padded: %d", got)
	}
	if f := Compute(r, 12); !f.HasCost || f.CostUSD < 0.008 || f.CostUSD > 0.0081 {
		t.Errorf("cost %v (%v), want 8,000 input tokens' $0.008 and one output token's", f.CostUSD, f.HasCost)
	}
	if got := PromptEstimate(&probes.Result{}, 12); got != 12 {
		t.Errorf("as written: %d", got)
	}
}
