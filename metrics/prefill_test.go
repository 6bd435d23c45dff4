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
	if got, why := PrefillTPS(points); why != "" || got < 11999.99 || got > 12000.01 {
		t.Errorf("prefill %v (%q), want 12,000 tok/s", got, why)
	}
	for _, c := range []struct {
		points []PrefillPoint
		want   NoPrefill
	}{
		{nil, PrefillNoTTFT},
		{points[:1], PrefillOneSize},
		{[]PrefillPoint{{1000, 300 * ms}, {1000, 400 * ms}}, PrefillOneSize},
		{[]PrefillPoint{{1000, 400 * ms}, {8000, 300 * ms}}, PrefillFlat},
	} {
		if tps, why := PrefillTPS(c.points); why != c.want {
			t.Errorf("%v: %v tok/s (%q), want no estimate: %q", c.points, tps, why, c.want)
		}
	}
}

// Points of known noise: TTFT = base + tokens ÷ rate + noise[i]. The rule
// of PrefillTPS keeps an estimate the points support and drops one they do
// not.
func TestPrefillTPSNoise(t *testing.T) {
	sweep := func(base time.Duration, rate float64, sizes []int, noise ...time.Duration) []PrefillPoint {
		var points []PrefillPoint
		for i, n := range sizes {
			ttft := base + time.Duration(float64(n)/rate*float64(time.Second))
			if rate == 0 {
				ttft = base
			}
			points = append(points, PrefillPoint{n, ttft + noise[i%len(noise)]})
		}
		return points
	}
	defaults := []int{1000, 8000, 32000}
	repeated := []int{1000, 1000, 8000, 8000, 32000, 32000}
	for _, c := range []struct {
		name   string
		points []PrefillPoint
		want   float64 // 0: no estimate
		within float64 // relative
		why    NoPrefill
	}{
		// No prefill cost, a few µs of scheduling noise growing with the
		// size: the slope is positive, its inverse 50 million tok/s.
		{"flat, noise grows", sweep(600*ms, 0, defaults, 0, 100*time.Microsecond, 600*time.Microsecond), 0, 0, PrefillFlat},
		// No prefill cost, ±90ms of jitter (a laptop's 600ms ±15%): growth
		// within the noise.
		{"flat, jitter", sweep(600*ms, 0, defaults, -90*ms, 20*ms, 90*ms), 0, 0, PrefillNoisy},
		// 30,000 tok/s under 250ms ±30%: the growth (1s) shows, and the
		// residuals are small beside it.
		{"wafer, jitter", sweep(250*ms, 30000, repeated, 75*ms, -75*ms, -20*ms, 40*ms, 10*ms, -30*ms), 30000, 0.10, ""},
		// The same sweep with ±400ms of noise: the slope's standard error
		// is over a fifth of it.
		{"wafer, noisy", sweep(250*ms, 30000, repeated, 400*ms, -400*ms, -400*ms, 400*ms, 400*ms, -400*ms), 0, 0, PrefillNoisy},
		// Two sizes, exact: the growth test alone, passed…
		{"two sizes", sweep(10*ms, 20000, []int{1000, 3000}, 0), 20000, 1e-6, ""},
		// …and failed: 12ms of growth on a 2s TTFT.
		{"two sizes, slow base", sweep(2*time.Second, 250000, []int{1000, 4000}, 0), 0, 0, PrefillFlat},
	} {
		got, why := PrefillTPS(c.points)
		switch {
		case c.want == 0 && why != c.why:
			t.Errorf("%s: %.0f tok/s (%q), want no estimate: %q", c.name, got, why, c.why)
		case c.want > 0 && (why != "" || got < c.want*(1-c.within) || got > c.want*(1+c.within)):
			t.Errorf("%s: %.0f (%q), want %.0f ±%.0f%%", c.name, got, why, c.want, c.within*100)
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
