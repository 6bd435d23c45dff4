package live

import (
	"math"
	"slices"
	"time"

	"tpsrace/metrics"
)

// The series behind the sparklines and the chart: live tok/s and tokens
// so far, sampled over the race.

// SamplePeriod spaces the live tok/s samples behind the sparklines and the
// chart. Samples sit at fixed race times, so a replay draws the same picture.
const SamplePeriod = 50 * time.Millisecond

// Series is per-user live tok/s (median across streams) every SamplePeriod
// from the release to until. Samples no later than every stream's newest
// event are final and kept; later ones are recomputed until their events
// have surely arrived. The result must not be modified, and holds until
// the next call: the later samples are written past the final ones, into
// room kept for them, so a frame makes no garbage here.
func (p *Lane) Series(until time.Duration) []float64 {
	final := p.finalUntil()
	for {
		t := SamplePeriod * time.Duration(len(p.samples)+1)
		if t > until || t > final {
			break
		}
		perUser, _ := p.liveAt(t)
		p.samples = append(p.samples, perUser)
	}
	n := min(len(p.samples), int(until/SamplePeriod))
	out := withRoom(&p.samples, n, int(until/SamplePeriod)-n)
	for t := SamplePeriod * time.Duration(len(out)+1); t <= until; t += SamplePeriod {
		perUser, _ := p.liveAt(t)
		out = append(out, perUser)
	}
	return out
}

// finalUntil is the race time up to which every event has been recorded:
// the newest event of each running stream (events of one stream arrive in
// order), the end of time for streams that ended.
func (p *Lane) finalUntil() time.Duration {
	final := time.Duration(math.MaxInt64)
	for i := range p.Streams {
		s := &p.Streams[i]
		if s.Result != nil {
			continue
		}
		if last, ok := s.Events.Last(); !ok {
			final = 0
		} else {
			// Just before the newest event: another may share its instant.
			final = min(final, last.At-1)
		}
	}
	return final
}

// liveAt is metrics.LiveTPS of every stream at t: the median across the
// streams streaming at t (first event before t, not ended) and the sum
// across all. A stream that has ended streams nothing: its rate after the
// end is zero, not its last second's tokens lingering in the window.
func (p *Lane) liveAt(t time.Duration) (perUser, aggregate float64) {
	rates := make([]float64, 0, len(p.Streams))
	for i := range p.Streams {
		s := &p.Streams[i]
		if first, ok := s.Events.First(); s.Result != nil && t > s.Result.End || !ok || first.At >= t {
			continue
		}
		rate := metrics.LiveTPS(s.Events, t)
		rates = append(rates, rate)
		aggregate += rate
	}
	perUser, _ = metrics.Median(rates)
	return perUser, aggregate
}

// TokenSeries is per-user o200k tokens so far (the median across every
// stream, as Snapshot.UserTokens) every SamplePeriod from the release to
// until, and a last point at until itself: the race's cumulative tokens,
// whose slope is the speed. It stops at the end of the provider's last
// stream (a line ends where the provider finished) and is empty when
// every stream failed. Final samples are kept, as in Series; the result
// must not be modified, and holds until the next call.
func (p *Lane) TokenSeries(until time.Duration) (times []time.Duration, tokens []float64) {
	end, settled, ok := p.End()
	if !ok {
		return nil, nil
	}
	if settled {
		until = min(until, end)
	}
	final := p.finalUntil()
	for {
		t := SamplePeriod * time.Duration(len(p.tokenSamples))
		if t > until || t > final {
			break
		}
		p.tokenSamples = append(p.tokenSamples, p.tokensAt(t))
	}
	n := min(len(p.tokenSamples), int(until/SamplePeriod)+1)
	tokens = withRoom(&p.tokenSamples, n, int(until/SamplePeriod)+2-n)
	for t := SamplePeriod * time.Duration(len(tokens)); t <= until; t += SamplePeriod {
		tokens = append(tokens, p.tokensAt(t))
	}
	for k := len(p.sampleTimes); k < len(tokens); k++ {
		p.sampleTimes = append(p.sampleTimes, SamplePeriod*time.Duration(k))
	}
	times = withRoom(&p.sampleTimes, len(tokens), 1)
	if len(times) == 0 || times[len(times)-1] < until {
		times, tokens = append(times, until), append(tokens, p.tokensAt(until))
	}
	return times, tokens
}

// tokensAt is the median tokens so far at t across every stream, a failed
// one counting what it delivered (metrics.Summary's tokens per user), so the
// chart ends where the race track does.
func (p *Lane) tokensAt(t time.Duration) float64 {
	counts := make([]float64, 0, len(p.Streams))
	for i := range p.Streams {
		counts = append(counts, float64(p.Streams[i].tokensAt(t)))
	}
	v, _ := metrics.Median(counts)
	return v
}

// withRoom is (*s)[:n], to append provisional values to: when n is all
// of *s, they go into its spare capacity, grown by extra and kept for the
// next call, and *s's own values are never written; when n is less (a
// replay scrubbed back), appending copies.
func withRoom[T any](s *[]T, n, extra int) []T {
	if n < len(*s) {
		return (*s)[:n:n]
	}
	*s = slices.Grow(*s, max(extra, 0))
	return *s
}

// Resample picks width columns from series, each the sample at the end of
// its share of the time axis (repeating samples when there are fewer than
// columns), so the whole span always fills the width.
func Resample(series []float64, width int) []float64 {
	if width <= 0 || len(series) == 0 {
		return nil
	}
	n := len(series)
	out := make([]float64, width)
	for j := range out {
		out[j] = series[((j+1)*n+width-1)/width-1]
	}
	return out
}
