package metrics

import (
	"math"
	"testing"
	"time"
	"unicode"

	"tpsrace/probes"
)

func TestFeltOfStallsAndBurstiness(t *testing.T) {
	// Gaps 100, 100, 400, 100, 300 ms: two over 250 ms, the longer 400.
	f := FeltOf(probes.EventsOf(ev(0, " a", 1), ev(100*ms, " b", 1), ev(200*ms, " c", 1), ev(600*ms, " d", 1),
		ev(700*ms, " e", 1), ev(1000*ms, " f", 1)).Values())
	if f.Gaps != 5 || f.Stalls != 2 || f.LongestStall != 400*ms {
		t.Errorf("gaps %d stalls %d longest %v, want 5, 2, 400ms", f.Gaps, f.Stalls, f.LongestStall)
	}
	// Mean 200 ms; deviations −100, −100, 200, −100, 100.
	want := math.Sqrt((3*100*100+200*200+100*100)/5.0) / 200
	if !f.HasBurstiness || math.Abs(f.Burstiness-want) > 1e-12 {
		t.Errorf("burstiness %v (%v), want %v", f.Burstiness, f.HasBurstiness, want)
	}
	if got := f.Label(); got != "2 stalls · 400ms" {
		t.Errorf("label %q", got)
	}
	// A gap of exactly StallGap is not a stall.
	if f := FeltOf(probes.EventsOf(ev(0, "a", 1), ev(StallGap, "b", 1)).Values()); f.Stalls != 0 || f.Gaps != 1 {
		t.Errorf("a gap of exactly %v: %+v", StallGap, f)
	}
}

func TestFeltLabels(t *testing.T) {
	for _, tc := range []struct {
		f    Felt
		want string
	}{
		{Felt{Gaps: 9, Burstiness: 0.2, HasBurstiness: true}, "smooth"},
		{Felt{Gaps: 9, Burstiness: BurstyCV, HasBurstiness: true, Paused: BurstyPaused, HasPaused: true}, "bursty"},
		// As irregular, but no pause a viewer sees: one flow.
		{Felt{Gaps: 9, Burstiness: 3, HasBurstiness: true, Paused: 0.2, HasPaused: true}, "smooth"},
		{Felt{Gaps: 9, Stalls: 1, LongestStall: 1200 * ms, Burstiness: 3, HasBurstiness: true}, "1 stall · 1.20s"},
		{Felt{Gaps: 1}, ""},
		{Felt{}, ""},
		// A failed stream is not called smooth or bursty, however even its
		// text was before it failed; a stall before the failure was seen.
		{Felt{Gaps: 9, Burstiness: 0.2, HasBurstiness: true, Failed: true}, ""},
		{Felt{Gaps: 9, Burstiness: 2, HasBurstiness: true, Failed: true}, ""},
		{Felt{Gaps: 9, Stalls: 1, LongestStall: 300 * ms, HasBurstiness: true, Failed: true}, "1 stall · 300ms"},
	} {
		if got := tc.f.Label(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
	// A metronome: every gap equal.
	if f := FeltOf(probes.EventsOf(ev(0, "a", 1), ev(10*ms, "b", 1), ev(20*ms, "c", 1)).Values()); !f.HasBurstiness || f.Burstiness != 0 {
		t.Errorf("metronome: %+v", f)
	}
}

// Bursty is irregular where a viewer sees it. A fast stream whose events
// are read in clumps of microseconds (packets read together) is as
// irregular as random arrivals but never pauses visibly: smooth. Clumps
// of text with 200 ms pauses between them (a provider batching tokens)
// are bursty: the text stands still most of the time.
func TestBurstyIsAVisibleRhythm(t *testing.T) {
	us := time.Microsecond
	var jitter, clumps []probes.Event
	for i := range 60 {
		at := time.Duration(i/3) * 3750 * us // 3 events read at once every 3.75ms: 800 tok/s
		jitter = append(jitter, ev(at+time.Duration(i%3)*10*us, " w", 1))
		clumps = append(clumps, ev(time.Duration(i/10)*200*ms+time.Duration(i%10)*us, " w", 1))
	}
	j := FeltOf(probes.EventsOf(jitter...).Values())
	if !j.HasBurstiness || j.Burstiness < BurstyCV || !j.HasPaused || j.Paused != 0 || j.Label() != "smooth" {
		t.Errorf("sub-millisecond clumps: burstiness %.2f paused %.2f, feel %q, want smooth", j.Burstiness, j.Paused, j.Label())
	}
	c := FeltOf(probes.EventsOf(clumps...).Values())
	// 5 pauses of 200ms − 9µs in a span of 1s + 9µs.
	if want := float64(5*(200*ms-9*us)) / float64(time.Second+9*us); c.Stalls != 0 || math.Abs(c.Paused-want) > 1e-12 || c.Label() != "bursty" {
		t.Errorf("clumps every 200ms: stalls %d paused %v (want %v), feel %q, want bursty", c.Stalls, c.Paused, want, c.Label())
	}
	if f := FeltOf(probes.EventsOf(ev(0, "a", 1)).Values()); f.HasPaused {
		t.Errorf("one event: %+v", f)
	}
}

func TestReaderWait(t *testing.T) {
	wordTime := time.Minute / ReaderWPM // 250ms a word
	for _, tc := range []struct {
		name   string
		events []probes.Event
		want   time.Duration
	}{
		// 4 words at once: the reader never waits.
		{"all at once", []probes.Event{ev(100*ms, "one two three four", 4)}, 0},
		// One word every 100 ms: faster than reading.
		{"ahead", []probes.Event{ev(0, " a", 1), ev(100*ms, " b", 1), ev(200*ms, " c", 1)}, 0},
		// One word, then the next 1 s later: read by 250 ms, waited 750 ms.
		{"behind", []probes.Event{ev(0, " a", 1), ev(time.Second, " b", 1)}, time.Second - wordTime},
		// A word split across events is one word: "hel"+"lo" read by 250 ms, then " x" at 600 ms.
		{"split word", []probes.Event{ev(0, " hel", 1), ev(100*ms, "lo", 1), ev(600*ms, " x", 1)}, 600*ms - wordTime},
		// Reasoning is read too, before the answer of the same event.
		{"reasoning", []probes.Event{{At: 0, Reasoning: " think", Content: " a", Tokens: 2}, ev(time.Second, " b", 1)}, time.Second - 2*wordTime},
	} {
		f := FeltOf(probes.EventsOf(tc.events...).Values())
		if !f.HasReaderWait || f.ReaderWait != tc.want {
			t.Errorf("%s: reader wait %v (%v), want %v", tc.name, f.ReaderWait, f.HasReaderWait, tc.want)
		}
	}
	if f := FeltOf(probes.EventsOf().Values()); f.HasReaderWait {
		t.Errorf("no events: %+v", f)
	}
}

func TestFeltOfRun(t *testing.T) {
	f := FeltOfRun([]Felt{
		{Gaps: 10, Stalls: 1, LongestStall: 300 * ms, Burstiness: 0.5, HasBurstiness: true, ReaderWait: 100 * ms, HasReaderWait: true, Paused: 0.4, HasPaused: true},
		{Gaps: 10, Stalls: 3, LongestStall: 280 * ms, Burstiness: 1.5, HasBurstiness: true, ReaderWait: 0, HasReaderWait: true, Paused: 0.6, HasPaused: true},
		{}, // a stream with no text
	})
	if f.Stalls != 3 || f.LongestStall != 300*ms || f.Burstiness != 1 || f.ReaderWait != 50*ms || f.Paused != 0.5 || f.Gaps != 20 || f.Failed {
		t.Errorf("%+v", f)
	}
	even := Felt{Gaps: 10, Burstiness: 0.1, HasBurstiness: true}
	failed := even
	failed.Failed = true
	if f := FeltOfRun([]Felt{failed, failed}); !f.Failed || f.Label() != "" {
		t.Errorf("a run none of whose streams completed: %+v, feel %q", f, f.Label())
	}
	if f := FeltOfRun([]Felt{failed, even}); f.Failed || f.Label() != "smooth" {
		t.Errorf("a run one of whose streams completed: %+v, feel %q", f, f.Label())
	}
}

// wordStarts reads ASCII a byte at a time and anything else by its runes:
// both count as unicode.IsSpace splits, across the texts of events too.
func TestWordStartsAsUnicodeSplits(t *testing.T) {
	texts := []string{"", " ", "Hello", " world", ",\tthe\ncache", "  ", "é", "café au\u00a0lait", "x\u0085y", "\u2003em space", "日本 語", "end "}
	reference := func(s string, afterSpace bool) (int, bool) {
		n := 0
		for _, r := range s {
			space := unicode.IsSpace(r)
			if !space && afterSpace {
				n++
			}
			afterSpace = space
		}
		return n, afterSpace
	}
	for _, a := range texts {
		for _, b := range texts {
			n, after := wordStarts(a, true)
			m, after := wordStarts(b, after)
			wn, wafter := reference(a+b, true)
			if n+m != wn || after != wafter {
				t.Errorf("%q then %q: %d words, ends in space %v; want %d, %v", a, b, n+m, after, wn, wafter)
			}
		}
	}
}
