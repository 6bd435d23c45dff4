package metrics

import (
	"math"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

const ms = time.Millisecond

func ev(at time.Duration, content string, tokens int) probes.Event {
	return probes.Event{At: at, Content: content, Tokens: tokens}
}

func TestComputeDefinitions(t *testing.T) {
	r := &probes.Result{
		Events: probes.EventsOf(
			probes.Event{At: 100 * ms, Reasoning: " thinking", Tokens: 1},
			ev(300*ms, " The", 1),
			ev(400*ms, " cache", 1),
			ev(600*ms, " works", 1),
		),
		Usage: &probes.Usage{PromptTokens: 10, CompletionTokens: 4, TotalTokens: 14},
		End:   650 * ms,
		Price: &config.Price{InputPerMTok: 1, OutputPerMTok: 2},
	}
	f := Compute(r, 99)
	check := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("TTFT (first text, reasoning counts)", f.TTFT, 100*ms)
	check("TTFA (first answer text)", f.TTFA, 300*ms)
	check("E2E", f.E2E, 650*ms)
	check("output tokens", f.OutputTokens, 4)
	check("token source", f.TokenSource, SourceUsage)
	check("o200k tokens", f.O200kTokens, 4)
	// (4 − 1 first-event token) / (600ms − 100ms)
	check("output tok/s", f.OutputTPS, 6.0)
	check("tokens per event", f.TokensPerEvent, 1.0)
	check("ITL p50 (gaps 200,100,200)", f.ITL.P50, 200*ms)
	check("content chars", f.ContentChars, len(" The cache works"))
	check("reasoning chars", f.ReasoningChars, len(" thinking"))
	// usage's prompt tokens win over the caller's estimate: (10×1 + 4×2) / 1e6
	check("cost", f.CostUSD, 18e-6)
}

func TestComputeWithoutUsageEstimates(t *testing.T) {
	r := &probes.Result{Events: probes.EventsOf(ev(50*ms, "Hello, world!", 4)), End: 60 * ms}
	f := Compute(r, 5)
	if f.TokenSource != SourceEstimate || f.OutputTokens != 4 {
		t.Errorf("tokens %d from %s, want the o200k estimate 4", f.OutputTokens, f.TokenSource)
	}
	if f.HasOutputTPS {
		t.Errorf("one-event answer: output speed %v, want undefined", f.OutputTPS)
	}
	if f.HasCost {
		t.Error("no price: cost must be undefined")
	}
}

func TestComputeNoText(t *testing.T) {
	f := Compute(&probes.Result{End: time.Second}, 0)
	if f.HasTTFT || f.HasTTFA || f.HasOutputTPS || f.OutputTokens != 0 {
		t.Errorf("no events: %+v, want nothing defined", f)
	}
}

func TestLiveTPSWindow(t *testing.T) {
	events := []probes.Event{ev(100*ms, "a", 2), ev(900*ms, "b", 3), ev(1500*ms, "c", 5)}
	for _, tc := range []struct {
		now  time.Duration
		want float64
	}{
		{50 * ms, 0},     // before the first event
		{100 * ms, 0},    // at the first event: nothing after it yet
		{500 * ms, 0},    // 0 tokens in (100ms, 500ms]
		{900 * ms, 3.75}, // 3 tokens in (100ms, 900ms]: clipped to 0.8 s
		{1100 * ms, 3},   // 3 tokens in (100ms, 1100ms]: a full window
		{1400 * ms, 3},   // a later event does not count yet
		{1500 * ms, 8},   // 3 + 5 in (500ms, 1500ms]
		{3000 * ms, 0},   // long after the end
	} {
		if got := LiveTPS(probes.EventsOf(events...), tc.now); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("LiveTPS at %v = %v, want %v", tc.now, got, tc.want)
		}
	}
	// A stream shorter than the window reads its own speed.
	var short []probes.Event
	for i := range 400 {
		short = append(short, ev(time.Duration(i)*500*time.Microsecond, "x", 1)) // 2000 tok/s for 0.2 s
	}
	if got := LiveTPS(probes.EventsOf(short...), 200*ms); math.Abs(got-2000) > 20 {
		t.Errorf("short stream: LiveTPS = %v, want about 2000", got)
	}

	// A long stream, bursts and events that share an instant: the window's
	// tokens are those of a walk over every event, at every moment.
	var long []probes.Event
	for i := range 3000 {
		long = append(long, ev(time.Duration(i/3)*700*time.Microsecond, "y", 1+i%4))
	}
	rec := probes.EventsOf(long...)
	for now := time.Duration(0); now < 2500*ms; now += 350 * time.Microsecond {
		want := 0.0
		if from := max(now-LiveWindow, long[0].At); now > long[0].At {
			tok := 0
			for _, e := range long {
				if e.At > from && e.At <= now {
					tok += e.Tokens
				}
			}
			want = float64(tok) / (now - from).Seconds()
		}
		if got := LiveTPS(rec, now); got != want {
			t.Fatalf("long stream: LiveTPS at %v = %v, want %v", now, got, want)
		}
	}
}

func TestPercentileInterpolates(t *testing.T) {
	v := []float64{10, 20, 30, 40}
	for p, want := range map[float64]float64{0: 10, 50: 25, 95: 38.5, 100: 40} {
		if got := Percentile(v, p); math.Abs(got-want) > 1e-9 {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if Percentile([]float64{}, 50) != 0 {
		t.Error("empty: want 0")
	}
}

func TestAggregateTPS(t *testing.T) {
	// The failed stream's 100 tokens count, and its end.
	figs := []Figures{{OutputTokens: 100, E2E: time.Second, Completed: true}, {OutputTokens: 100, E2E: 2 * time.Second}}
	if got, ok := AggregateTPS(figs); !ok || got != 100 {
		t.Errorf("aggregate = %v, want 200 tokens / 2 s = 100", got)
	}
	if _, ok := AggregateTPS(nil); ok {
		t.Error("no streams: want undefined")
	}
	if _, ok := AggregateTPS(figs[1:]); ok {
		t.Error("no completed stream: want undefined")
	}
}

func TestRulesOfThumb(t *testing.T) {
	for tps, want := range map[float64]string{20: "slow", 80: "conversational", 150: "voice-ready", 1800: "voice-ready"} {
		if got := SpeedBadge(tps); got != want {
			t.Errorf("SpeedBadge(%v) = %q, want %q", tps, got, want)
		}
	}
	loop, ok := AgentLoop(500*ms, 100)
	if !ok || loop != 30*(500*ms+2*time.Second) {
		t.Errorf("AgentLoop = %v, want 30 × (0.5 s + 200 tokens / 100 tok/s) = 75 s", loop)
	}
	if _, ok := AgentLoop(0, 0); ok {
		t.Error("no speed: want undefined")
	}
}

func TestSoFar(t *testing.T) {
	n, tps, ok := SoFar(probes.EventsOf(ev(0, "a", 2), ev(500*ms, "b", 1), ev(1000*ms, "c", 1)))
	if n != 4 || !ok || tps != 2 {
		t.Errorf("SoFar = %d tokens, %v tok/s (%v), want 4 and (4−2)/1 s = 2", n, tps, ok)
	}
}
