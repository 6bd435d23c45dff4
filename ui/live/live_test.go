package live

import (
	"errors"
	"math"
	"slices"
	"strings"
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

func record(p *Lane, stream int, events []probes.Event, end time.Duration, err error) {
	var rec probes.Events
	for i := range events {
		rec.Append(events[i])
		p.Record(probes.Update{Stream: stream, Events: rec})
	}
	if end > 0 {
		p.Record(probes.Update{Stream: stream, Done: &probes.Result{Events: probes.EventsOf(events...), End: end, Err: err}})
	}
}

func TestFiguresFollowMetrics(t *testing.T) {
	p := NewLane(0, config.Provider{Name: "a", Model: "sim:x"}, 1, 10)
	events := steady(200*ms, 10*ms, 101) // 100 tokens after the first over 1s: 100 tok/s
	record(p, 0, events[:51], 0, nil)

	f := p.Snapshot(700 * ms)
	if f.Status != Streaming || f.Settled || !f.HasTTFT || f.TTFT != 200*ms || f.Elapsed != 700*ms {
		t.Fatalf("live figures %+v", f)
	}
	wantTok, wantTPS, _ := metrics.SoFar(probes.EventsOf(events[:51]...))
	if f.Tokens != wantTok || f.Speed != wantTPS {
		t.Errorf("live tokens/speed %d/%v, want metrics.SoFar's %d/%v", f.Tokens, f.Speed, wantTok, wantTPS)
	}
	if want := metrics.LiveTPS(probes.EventsOf(events[:51]...), 700*ms); f.NowTPS != want {
		t.Errorf("NowTPS %v, want metrics.LiveTPS's %v", f.NowTPS, want)
	}

	record(p, 0, events[51:], 0, nil)
	p.Record(probes.Update{Stream: 0, Done: &probes.Result{Events: probes.EventsOf(events...), End: 1250 * ms}})
	f = p.Snapshot(5 * time.Second)
	want := metrics.Compute(&probes.Result{Events: probes.EventsOf(events...), End: 1250 * ms}, 10)
	if f.Status != Done || !f.Settled || f.Speed != want.OutputTPS || f.Elapsed != want.E2E || f.Tokens != want.OutputTokens {
		t.Fatalf("settled figures %+v, want metrics.Compute's %+v", f, want)
	}
	if f.NowTPS != 0 {
		t.Errorf("a settled provider has no live rate, got %v", f.NowTPS)
	}
}

func TestThinkingThenAnswer(t *testing.T) {
	p := NewLane(0, config.Provider{Name: "r"}, 1, 0)
	think := probes.Event{At: 100 * ms, Reasoning: "hmm", Tokens: 2}
	rec := probes.EventsOf(think)
	p.Record(probes.Update{Events: rec})
	if f := p.Snapshot(150 * ms); f.Status != Thinking || f.HasTTFA {
		t.Fatalf("reasoning only: %+v", f)
	}
	answer := probes.Event{At: 400 * ms, Content: "yes", Tokens: 1}
	rec.Append(answer)
	p.Record(probes.Update{Events: rec})
	f := p.Snapshot(450 * ms)
	if f.Status != Streaming || f.TTFT != 100*ms || f.TTFA != 400*ms {
		t.Fatalf("answering: %+v", f)
	}
	if p.Answer() != "yes" || p.Reasoning() != "hmm" || p.ReasoningTokens() != 2 {
		t.Errorf("text %q/%q, %d reasoning tokens", p.Answer(), p.Reasoning(), p.ReasoningTokens())
	}
	p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(think, answer), End: 500 * ms}})
	if got := p.Snapshot(time.Second); got.TTFA != 400*ms || got.TTFT != 100*ms {
		t.Errorf("settled TTFT/TTFA %v/%v", got.TTFT, got.TTFA)
	}
}

func TestConcurrentStreamsUseMedianAndAggregate(t *testing.T) {
	p := NewLane(0, config.Provider{Name: "c"}, 3, 0)
	fail := &probes.Failure{Kind: probes.KindHTTP, Status: 429, Message: "slow down"}
	record(p, 0, steady(100*ms, 10*ms, 101), 1100*ms, nil) // 100 tok/s
	record(p, 1, steady(100*ms, 5*ms, 101), 600*ms, nil)   // 200 tok/s
	record(p, 2, nil, 50*ms, fail)
	f := p.Snapshot(2 * time.Second)
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
	p := NewLane(0, config.Provider{Name: "x"}, 1, 0)
	record(p, 0, nil, 10*ms, &probes.Failure{Kind: probes.KindHTTP, Status: 401, Message: "bad key", Hint: "check X_API_KEY"})
	if f := p.Snapshot(time.Second); f.Status != Failed || f.HasSpeed {
		t.Fatalf("figures %+v", f)
	}
}

// A lane whose stream failed after even text is not called smooth: its
// feel is blank (the leaderboard's "—"), where the same text completed is.
func TestAFailedLaneDoesNotFeelSmooth(t *testing.T) {
	events := steady(100*ms, 10*ms, 30)
	done := NewLane(0, config.Provider{Name: "done"}, 1, 0)
	record(done, 0, events, 500*ms, nil)
	dropped := NewLane(1, config.Provider{Name: "dropped"}, 1, 0)
	record(dropped, 0, events, 500*ms, &probes.Failure{Kind: probes.KindNetwork, Message: "connection reset by peer"})
	if f := done.Snapshot(time.Second); f.Feel != "smooth" {
		t.Errorf("completed: feel %q, want smooth", f.Feel)
	}
	if f := dropped.Snapshot(time.Second); f.Status != Failed || f.Feel != "" {
		t.Errorf("failed: status %v, feel %q; want failed, no feel", f.Status, f.Feel)
	}
}

func TestSeriesIsLiveTPSAtFixedTimes(t *testing.T) {
	p := NewLane(0, config.Provider{Name: "s"}, 1, 0)
	events := steady(100*ms, 10*ms, 101)
	record(p, 0, events[:60], 0, nil)
	early := slices.Clone(p.Series(2 * time.Second)) // partly provisional: events after 690ms have not arrived
	record(p, 0, events[60:], 0, nil)
	p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(events...), End: 1100 * ms}})
	series := p.Series(2 * time.Second)
	if len(series) != 40 || len(early) != 40 {
		t.Fatalf("%d and %d samples up to 2s, want 40", len(early), len(series))
	}
	for k, v := range series {
		at := SamplePeriod * time.Duration(k+1)
		want := metrics.LiveTPS(probes.EventsOf(events...), at)
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

// At C > 1 the lane's live rate is the median of the streams that stream:
// with most streams queued (no text yet) it is still the speed of those
// streaming, never 0.
func TestNowTPSIgnoresQueuedStreams(t *testing.T) {
	p := NewLane(0, config.Provider{Name: "q"}, 8, 0)
	for s := range 3 {
		record(p, s, steady(100*ms, 10*ms, 101), 0, nil) // 100 tok/s each
	}
	f := p.Snapshot(900 * ms)
	if f.NowTPS < 90 || f.NowTPS > 110 {
		t.Errorf("3 of 8 streaming at 100 tok/s: NowTPS %v", f.NowTPS)
	}
	if f.Queued != 5 || f.TTFTMax != 100*ms {
		t.Errorf("5 streams still waiting at 900ms (bound 200ms): queued %d, TTFT max %v", f.Queued, f.TTFTMax)
	}
}

// The lane's text follows the stream furthest along: stream 0 queued, the
// text is stream 3's; it moves only when another leads by a quarter.
func TestTextFollowsTheStreamFurthestAlong(t *testing.T) {
	p := NewLane(0, config.Provider{Name: "f"}, 4, 0)
	lead := probes.Event{At: 100 * ms, Content: "lead", Tokens: 8}
	rec3 := probes.EventsOf(lead)
	p.Record(probes.Update{Stream: 3, Events: rec3})
	if p.Following() != 3 || p.Answer() != "lead" {
		t.Fatalf("following %d, answer %q: want stream 3's", p.Following(), p.Answer())
	}
	close := probes.Event{At: 110 * ms, Content: "close", Tokens: 9}
	rec1 := probes.EventsOf(close)
	p.Record(probes.Update{Stream: 1, Events: rec1})
	if p.Following() != 3 {
		t.Errorf("9 tokens against 8 is neck and neck: the text stays on stream 3, got %d", p.Following())
	}
	ahead := probes.Event{At: 120 * ms, Content: "!", Tokens: 2}
	rec1.Append(ahead)
	p.Record(probes.Update{Stream: 1, Events: rec1})
	if p.Following() != 1 || p.Answer() != "close!" {
		t.Errorf("11 against 8: the text moves to stream 1, got %d %q", p.Following(), p.Answer())
	}
	p.Record(probes.Update{Stream: 1, Done: &probes.Result{Events: rec1, End: 130 * ms, Err: errors.New("reset")}})
	rec3.Append(probes.Event{At: 140 * ms, Content: "!", Tokens: 1})
	p.Record(probes.Update{Stream: 3, Events: rec3})
	if p.Following() != 3 {
		t.Errorf("a failed stream is not followed: got %d", p.Following())
	}
}

// Tokens so far rise with the events and stop where the provider ended:
// the line never falls back; a provider whose streams all failed has none.
func TestTokenSeriesStopsAtTheEnd(t *testing.T) {
	p := NewLane(0, config.Provider{Name: "t"}, 1, 0)
	events := steady(100*ms, 10*ms, 51)
	record(p, 0, events, 610*ms, nil)
	times, tokens := p.TokenSeries(2 * time.Second)
	if last := times[len(times)-1]; last != 610*ms {
		t.Errorf("the series ends at %v, want the end of the stream, 610ms", last)
	}
	for k := range tokens {
		if k > 0 && tokens[k] < tokens[k-1] {
			t.Fatalf("tokens fall at %v: %v", times[k], tokens)
		}
	}
	if tokens[len(tokens)-1] != 51 || tokens[0] != 0 {
		t.Errorf("from %v to %v tokens, want 0 to 51", tokens[0], tokens[len(tokens)-1])
	}
	if f := p.Snapshot(time.Second); f.UserTokens != 51 {
		t.Errorf("UserTokens %d, want 51", f.UserTokens)
	}
	failed := NewLane(1, config.Provider{Name: "x"}, 1, 0)
	record(failed, 0, events[:5], 200*ms, errors.New("reset"))
	if times, _ := failed.TokenSeries(time.Second); times != nil {
		t.Errorf("a failed provider draws nothing, got %v", times)
	}
}

func TestSharedScaleGoesLogPastTenTimes(t *testing.T) {
	fast, slow := NewLane(0, config.Provider{}, 1, 0), NewLane(1, config.Provider{}, 1, 0)
	record(fast, 0, steady(0, ms, 2001), 0, nil)  // 1000 tok/s
	record(slow, 0, steady(0, 40*ms, 51), 0, nil) // 25 tok/s
	near := NewLane(2, config.Provider{}, 1, 0)
	record(near, 0, steady(0, 2*ms, 1001), 0, nil) // 500 tok/s
	if s := SharedScale([]*Lane{fast, near}, 2*time.Second); s.Log || s.Top < 900 {
		t.Errorf("1000 and 500 tok/s: %+v, want linear up to the peak", s)
	}
	s := SharedScale([]*Lane{fast, slow}, 2*time.Second)
	if !s.Log {
		t.Fatalf("1000 and 25 tok/s: %+v, want log", s)
	}
	if f := s.Fraction(25); f < 0.3 || f > 0.6 {
		t.Errorf("25 tok/s on a log scale to %v sits at %v: low but visible", s.Top, f)
	}
	if s.Fraction(s.Top) != 1 || s.Fraction(0) != 0 || (Scale{Top: 100}).Fraction(25) != 0.25 {
		t.Error("the ends of the scale")
	}
}

func TestFinishLine(t *testing.T) {
	running := []Snapshot{{UserTokens: 120}, {UserTokens: 300, Settled: true}}
	settled := []Snapshot{{UserTokens: 120, Settled: true}, {UserTokens: 300, Settled: true}}
	for _, c := range []struct {
		finishAt, maxTokens int
		figs                []Snapshot
		want                int
	}{
		{0, 400, running, 400},   // max_tokens while racing
		{0, 400, settled, 300},   // the longest answer once known
		{100, 400, running, 100}, // --finish-at
		{0, 0, running, 300},     // no max_tokens: the longest so far
	} {
		if got := FinishLine(c.finishAt, c.maxTokens, c.figs); got != c.want {
			t.Errorf("FinishLine(%d, %d) = %d, want %d", c.finishAt, c.maxTokens, got, c.want)
		}
	}
	if Progress(Snapshot{UserTokens: 150}, 100) != 1 || Progress(Snapshot{UserTokens: 50}, 100) != 0.5 {
		t.Error("Progress stops at the line")
	}
}

// Once a stream ends the lane keeps one record, the Result's: the one it
// built from the updates is dropped, also when the counts agree, and when
// they differ (a result whose events were not all streamed to the lane)
// every figure reads the Result's.
func TestLaneKeepsTheResultsRecord(t *testing.T) {
	events := steady(100*ms, 10*ms, 40)

	p := NewLane(0, config.Provider{Name: "a"}, 1, 0)
	record(p, 0, events[:10], 0, nil)
	r := &probes.Result{Events: probes.EventsOf(events...), End: 600 * ms}
	p.Record(probes.Update{Done: r})
	if n := p.Streams[0].Events.Len(); n != 40 {
		t.Fatalf("after a result of 40 events the lane has %d", n)
	}
	f := p.Snapshot(time.Second)
	if f.UserTokens != 40 || f.Tokens != 40 {
		t.Errorf("tokens %d per user, %d in all: want the result's 40", f.UserTokens, f.Tokens)
	}
	if _, tokens := p.TokenSeries(time.Second); tokens[len(tokens)-1] != 40 {
		t.Errorf("token series ends at %v, want the result's 40", tokens[len(tokens)-1])
	}
	if got, want := p.Answer(), strings.Repeat(" word", 40); got != want {
		t.Errorf("the lane shows %q, want the result's text %q", got, want)
	}

	p = NewLane(0, config.Provider{Name: "a"}, 1, 0)
	record(p, 0, events, 0, nil)
	r = &probes.Result{Events: probes.EventsOf(events...), End: 600 * ms}
	p.Record(probes.Update{Done: r})
	// A copy of a record shares it: an event appended to the Result's shows
	// in the lane only if the lane holds that record and no copy of its own.
	r.Events.Append(probes.Event{At: 600 * ms, Content: "x", Tokens: 1})
	if n := p.Streams[0].Events.Len(); n != 41 {
		t.Errorf("the lane holds a record of %d events, not the Result's (41)", n)
	}
}
