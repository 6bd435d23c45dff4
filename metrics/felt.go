package metrics

import (
	"iter"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	"tpsrace/format"
	"tpsrace/probes"
)

// The felt stream's rules (README: "What the numbers mean").
const (
	// StallGap: a gap between text events longer than this is a stall, a
	// pause a reader sees (a quarter second reads as the text stopping).
	StallGap = 250 * time.Millisecond
	// ReaderWPM: the reader of ReaderWait reads 240 words a minute.
	ReaderWPM = 240
	// BurstyCV: gaps whose coefficient of variation reaches 1, as
	// irregular as random (Poisson) arrivals or more, are bursty...
	BurstyCV = 1.0
	// ...when a viewer can see it: VisiblePause is the shortest gap seen as
	// the text standing still (100 ms, below which a change reads as
	// instant), and BurstyPaused the share of the stream's text time such
	// pauses must hold. A fast stream's sub-millisecond jitter (packets
	// read together, a busy client) is as irregular as random arrivals but
	// reads as one flow: it is smooth.
	VisiblePause = 100 * time.Millisecond
	BurstyPaused = 0.25
)

// FeelOneBurst is Label's word for an answer that came at once.
const FeelOneBurst = "one burst"

// Felt is how a stream felt to someone watching it, beyond its averages.
type Felt struct {
	// Gaps: how many gaps between consecutive text events there were (one
	// fewer than the events); Stalls is undefined without any.
	Gaps int
	// Stalls: gaps between consecutive text events longer than StallGap;
	// LongestStall the longest of them (0 without stalls).
	Stalls       int
	LongestStall time.Duration
	// Burstiness: the coefficient of variation (population standard
	// deviation ÷ mean) of the gaps between consecutive text events: 0 for
	// a metronome, about 1 for random arrivals, more for bursts and
	// pauses. HasBurstiness false under two gaps, or when every gap is 0.
	Burstiness    float64
	HasBurstiness bool
	// Paused: the share of the time from the first text event to the last
	// spent in gaps of VisiblePause or longer (0 to 1): how much of the
	// stream a viewer saw standing still. HasPaused false without a gap of
	// any length.
	Paused    float64
	HasPaused bool
	// ReaderWait: how long a reader at ReaderWPM, starting at the first
	// text event, waited with nothing left to read before the last event:
	// 0 when the stream stayed ahead of reading. HasReaderWait false
	// without text events.
	ReaderWait    time.Duration
	HasReaderWait bool
	// OneBurst: two or more text events, all within MinGap of the first:
	// the answer came at once, not streamed (FlagOneBurst); a run's: every
	// stream of it with text did so.
	OneBurst bool
	// Failed: the stream failed (Compute sets it; a run's: none of its
	// streams completed). Its figures are what arrived before, but Label
	// calls no failed stream smooth or bursty: it did not stream to its end.
	Failed bool
}

// FeltOf is the felt figures of a stream's text events (answer and
// reasoning, as they arrived). A word is a run of non-space characters,
// counted where it starts: a word split across two events is one word, in
// the event that began it. The reader reads each event's words after those
// before it, at ReaderWPM, and waits when it has read everything that has
// arrived.
func FeltOf(events iter.Seq[probes.Event]) Felt {
	var p feltPass
	for e := range events {
		p.add(&e)
	}
	return p.felt()
}

// readingAWord is a word's time at ReaderWPM (250 ms), in whole
// nanoseconds: exactly what the float product gave, without a conversion
// per event.
const readingAWord = time.Minute / ReaderWPM

// feltPass reads the felt figures off a stream's text events one at a
// time, and keeps the gaps (in order) for ITL: Compute walks the events
// once for both.
type feltPass struct {
	f          Felt
	gaps       []time.Duration
	paused     time.Duration // in gaps of VisiblePause or longer
	start      probes.Event  // the first and the last event's timing
	prev       probes.Event
	readUntil  time.Duration // when the reader has read every word so far
	afterSpace bool          // the text so far ends in a space
	started    bool
}

func (p *feltPass) add(e *probes.Event) {
	f := &p.f
	if !p.started {
		f.HasReaderWait, p.readUntil, p.start, p.afterSpace, p.started = true, e.At, timing(e), true, true
	} else {
		gap := Gap(&p.prev, e)
		p.gaps = append(p.gaps, gap)
		f.Gaps++
		if gap >= VisiblePause {
			p.paused += gap
		}
		if IsStall(gap) {
			f.Stalls++
			f.LongestStall = max(f.LongestStall, gap)
		}
	}
	if e.At > p.readUntil {
		f.ReaderWait += e.At - p.readUntil
		p.readUntil = e.At
	}
	words, afterSpace := 0, p.afterSpace
	if e.Reasoning != "" {
		words, afterSpace = wordStarts(e.Reasoning, afterSpace)
	}
	n, after := wordStarts(e.Content, afterSpace)
	words, p.afterSpace = words+n, after
	p.readUntil += time.Duration(words) * readingAWord
	p.prev = timing(e)
}

// felt is the figures of the events added so far.
func (p *feltPass) felt() Felt {
	f := p.f
	f.Burstiness, f.HasBurstiness = coefficientOfVariation(p.gaps)
	span := Gap(&p.start, &p.prev)
	if span > 0 {
		f.Paused, f.HasPaused = float64(p.paused)/float64(span), true
	}
	f.OneBurst = f.Gaps > 0 && span < MinGap
	return f
}

// Gap is the gap before text event e: the time since prev, the text event
// before it. The felt figures and the zoomed lane's gap strip both use it.
// It takes pointers: an Event (six words) passed by value is copied through
// memory, once per event of every stream Compute reads (BenchmarkCompute).
func Gap(prev, e *probes.Event) time.Duration { return e.At - prev.At }

// timing is e's time and tokens, all that the felt pass and the phases
// keep of the events that bound a stream or a phase (Gap, OutputTPS read
// nothing else): not its texts, whose copy, just after the walk decoded
// them, waits on those writes (a store-forwarding stall) at every event.
func timing(e *probes.Event) probes.Event { return probes.Event{At: e.At, Tokens: e.Tokens} }

// IsStall says whether a gap between text events is a stall: longer than
// StallGap.
func IsStall(gap time.Duration) bool { return gap > StallGap }

// wordStarts counts the words that begin in s, given whether the text
// before it ended in a space, and says whether s does.
func wordStarts(s string, afterSpace bool) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b >= utf8.RuneSelf { // rarer: the rune's own rules
			return wordStartsRunes(s[i:], afterSpace, n)
		}
		space := asciiSpace[b]
		if !space && afterSpace {
			n++
		}
		afterSpace = space
	}
	return n, afterSpace
}

// asciiSpace is unicode.IsSpace of each ASCII byte: most text is ASCII,
// read a byte at a time without decoding runes.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// wordStartsRunes is wordStarts of s with n words counted before it.
func wordStartsRunes(s string, afterSpace bool, n int) (int, bool) {
	for _, r := range s {
		space := unicode.IsSpace(r)
		if !space && afterSpace {
			n++
		}
		afterSpace = space
	}
	return n, afterSpace
}

// coefficientOfVariation is the population standard deviation ÷ the mean;
// ok is false under two values or with a mean of 0.
func coefficientOfVariation(v []time.Duration) (float64, bool) {
	if len(v) < 2 {
		return 0, false
	}
	var sum float64
	for _, x := range v {
		sum += float64(x)
	}
	mean := sum / float64(len(v))
	if mean <= 0 {
		return 0, false
	}
	var sq float64
	for _, x := range v {
		sq += (float64(x) - mean) * (float64(x) - mean)
	}
	return math.Sqrt(sq/float64(len(v))) / mean, true
}

// FeltOfRun is a provider's felt figures for one run, over its streams'
// (those with text; failed ones too: a stall before a failure was seen).
// A stall any user saw is reported: Stalls is the most any one stream had
// and LongestStall the longest of all; Burstiness, Paused and ReaderWait are the
// median user's (Median). With one stream, that stream's figures.
func FeltOfRun(streams []Felt) Felt {
	var f Felt
	var burst, pause []float64
	var wait []time.Duration
	withText, bursts := 0, 0
	for _, s := range streams {
		if s.Gaps > 0 {
			withText++
		}
		if s.OneBurst {
			bursts++
		}
		f.Gaps += s.Gaps
		f.Stalls = max(f.Stalls, s.Stalls)
		f.LongestStall = max(f.LongestStall, s.LongestStall)
		if s.HasBurstiness {
			burst = append(burst, s.Burstiness)
		}
		if s.HasReaderWait {
			wait = append(wait, s.ReaderWait)
		}
		if s.HasPaused {
			pause = append(pause, s.Paused)
		}
	}
	f.Burstiness, f.HasBurstiness = Median(burst)
	f.Paused, f.HasPaused = Median(pause)
	f.ReaderWait, f.HasReaderWait = Median(wait)
	f.OneBurst = withText > 0 && bursts == withText
	f.Failed = len(streams) > 0 && !slices.ContainsFunc(streams, func(s Felt) bool { return !s.Failed })
	return f
}

// Label is the feel in a few words, the leaderboard's "feel" column:
// "2 stalls · 1.2s" (the longest) when it stalled (a stall before a
// failure was seen too), "one burst" for an answer that came at once
// (OneBurst), else "bursty" at BurstyCV or more with visible
// pauses holding BurstyPaused of its time or more, else "smooth";
// "" (the views' "—") with fewer than three text events (too few gaps to
// tell) or for a failed stream, or a run none of whose streams completed:
// text that stopped in a failure did not feel smooth, however even it was.
func (f Felt) Label() string {
	switch {
	case f.Stalls == 1:
		return "1 stall · " + format.Duration(f.LongestStall)
	case f.Stalls > 1:
		return strconv.Itoa(f.Stalls) + " stalls · " + format.Duration(f.LongestStall)
	case f.Failed:
		return ""
	case f.OneBurst:
		return FeelOneBurst
	case !f.HasBurstiness:
		return ""
	case f.Burstiness >= BurstyCV && f.Paused >= BurstyPaused:
		return "bursty"
	}
	return "smooth"
}
