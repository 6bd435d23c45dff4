package live

import (
	"math"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
)

const ms = time.Millisecond

// steady is n events of one token every gap from first, all answer text.
func steady(first, gap time.Duration, n int) []probes.Event {
	events := make([]probes.Event, n)
	for i := range events {
		events[i] = probes.Event{At: first + time.Duration(i)*gap, Content: " word", Tokens: 1}
	}
	return events
}

func record(p *Provider, stream int, events []probes.Event, end time.Duration, err error) {
	for i := range events {
		p.Record(probes.Update{Stream: stream, Event: &events[i]})
	}
	if end > 0 {
		p.Record(probes.Update{Stream: stream, Done: &probes.Result{Events: events, End: end, Err: err}})
	}
}

func TestFiguresFollowMetrics(t *testing.T) {
	p := NewProvider(0, config.Provider{Name: "a", Model: "sim:x"}, 1, 10)
	events := steady(200*ms, 10*ms, 101) // 100 tokens after the first over 1s: 100 tok/s
	record(p, 0, events[:51], 0, nil)

	f := p.Figures(700 * ms)
	if f.Status != Streaming || f.Settled || !f.HasTTFT || f.TTFT != 200*ms || f.Elapsed != 700*ms {
		t.Fatalf("live figures %+v", f)
	}
	wantTok, wantTPS, _ := metrics.SoFar(events[:51])
	if f.Tokens != wantTok || f.Speed != wantTPS {
		t.Errorf("live tokens/speed %d/%v, want metrics.SoFar's %d/%v", f.Tokens, f.Speed, wantTok, wantTPS)
	}
	if want := metrics.LiveTPS(events[:51], 700*ms); f.NowTPS != want {
		t.Errorf("NowTPS %v, want metrics.LiveTPS's %v", f.NowTPS, want)
	}

	record(p, 0, events[51:], 0, nil)
	p.Record(probes.Update{Stream: 0, Done: &probes.Result{Events: events, End: 1250 * ms}})
	f = p.Figures(5 * time.Second)
	want := metrics.Compute(&probes.Result{Events: events, End: 1250 * ms}, 10)
	if f.Status != Done || !f.Settled || f.Speed != want.OutputTPS || f.Elapsed != want.E2E || f.Tokens != want.OutputTokens {
		t.Fatalf("settled figures %+v, want metrics.Compute's %+v", f, want)
	}
	if f.NowTPS != 0 {
		t.Errorf("a settled provider has no live rate, got %v", f.NowTPS)
	}
}

func TestThinkingThenAnswer(t *testing.T) {
	p := NewProvider(0, config.Provider{Name: "r"}, 1, 0)
	think := probes.Event{At: 100 * ms, Reasoning: "hmm", Tokens: 2}
	p.Record(probes.Update{Event: &think})
	if f := p.Figures(150 * ms); f.Status != Thinking || f.HasTTFA {
		t.Fatalf("reasoning only: %+v", f)
	}
	answer := probes.Event{At: 400 * ms, Content: "yes", Tokens: 1}
	p.Record(probes.Update{Event: &answer})
	f := p.Figures(450 * ms)
	if f.Status != Streaming || f.TTFT != 100*ms || f.TTFA != 400*ms {
		t.Fatalf("answering: %+v", f)
	}
	if p.Answer() != "yes" || p.Reasoning() != "hmm" || p.ReasoningTokens() != 2 {
		t.Errorf("text %q/%q, %d reasoning tokens", p.Answer(), p.Reasoning(), p.ReasoningTokens())
	}
	p.Record(probes.Update{Done: &probes.Result{Events: []probes.Event{think, answer}, End: 500 * ms}})
	if got := p.Figures(time.Second); got.TTFA != 400*ms || got.TTFT != 100*ms {
		t.Errorf("settled TTFT/TTFA %v/%v", got.TTFT, got.TTFA)
	}
}

func TestConcurrentStreamsUseMedianAndAggregate(t *testing.T) {
	p := NewProvider(0, config.Provider{Name: "c"}, 3, 0)
	fail := &probes.Failure{Kind: probes.KindHTTP, Status: 429, Message: "slow down"}
	record(p, 0, steady(100*ms, 10*ms, 101), 1100*ms, nil) // 100 tok/s
	record(p, 1, steady(100*ms, 5*ms, 101), 600*ms, nil)   // 200 tok/s
	record(p, 2, nil, 50*ms, fail)
	f := p.Figures(2 * time.Second)
	if f.Status != Done || f.Failed != 1 || f.Err != fail || f.Streams != 3 {
		t.Fatalf("figures %+v", f)
	}
	if math.Abs(f.Speed-150) > 1e-9 {
		t.Errorf("per-user speed %v, want the median of 100 and 200", f.Speed)
	}
	var figs []metrics.Figures
	for _, s := range p.Streams {
		figs = append(figs, s.Figures)
	}
	if want, _ := metrics.AggregateTPS(figs); f.AggregateTPS != want || !f.HasAggregateTPS {
		t.Errorf("aggregate %v, want metrics.AggregateTPS's %v", f.AggregateTPS, want)
	}
	if _, ok := p.Results(); !ok {
		t.Error("Results not ok once every stream ended")
	}
}

func TestAllFailed(t *testing.T) {
	p := NewProvider(0, config.Provider{Name: "x"}, 1, 0)
	record(p, 0, nil, 10*ms, &probes.Failure{Kind: probes.KindHTTP, Status: 401, Message: "bad key", Hint: "check X_API_KEY"})
	if f := p.Figures(time.Second); f.Status != Failed || f.HasSpeed {
		t.Fatalf("figures %+v", f)
	}
}

func TestSeriesIsLiveTPSAtFixedTimes(t *testing.T) {
	p := NewProvider(0, config.Provider{Name: "s"}, 1, 0)
	events := steady(100*ms, 10*ms, 101)
	record(p, 0, events[:60], 0, nil)
	early := p.Series(2 * time.Second) // partly provisional: events after 690ms have not arrived
	record(p, 0, events[60:], 0, nil)
	p.Record(probes.Update{Done: &probes.Result{Events: events, End: 1100 * ms}})
	series := p.Series(2 * time.Second)
	if len(series) != 40 || len(early) != 40 {
		t.Fatalf("%d and %d samples up to 2s, want 40", len(early), len(series))
	}
	for k, v := range series {
		at := SamplePeriod * time.Duration(k+1)
		want := metrics.LiveTPS(events, at)
		if at > 1100*ms {
			want = 0 // the stream has ended
		}
		if v != want {
			t.Errorf("sample %d (%v) = %v, want %v", k, at, v, want)
		}
	}
	if early[20] == series[20] {
		t.Errorf("sample at 1.05s should have been provisional before the later events arrived")
	}
	if got := p.Series(500 * ms); len(got) != 10 {
		t.Errorf("Series(500ms) has %d samples, want 10", len(got))
	}
}

func TestResample(t *testing.T) {
	if got := Resample([]float64{1, 2, 3, 4}, 2); got[0] != 2 || got[1] != 4 {
		t.Errorf("down: %v", got)
	}
	if got := Resample([]float64{1, 2}, 4); got[0] != 1 || got[1] != 1 || got[2] != 2 || got[3] != 2 {
		t.Errorf("up: %v", got)
	}
	if Resample(nil, 3) != nil || Resample([]float64{1}, 0) != nil {
		t.Error("empty")
	}
}
