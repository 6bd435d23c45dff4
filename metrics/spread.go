package metrics

import (
	"math"
	"slices"
	"time"
)

// Spread is one figure over several runs (the dashboard's --heats): the
// median of the runs' own figures and the range they lie in. Runs is how
// many runs had the figure; 0 means none did and the rest is undefined.
type Spread struct {
	Median, Min, Max float64
	Runs             int
}

// SpreadOf the values that are not NaN (DistOf, Median's rule).
func SpreadOf(values []float64) Spread {
	d := DistOf(values)
	if !d.Has() {
		return Spread{}
	}
	return Spread{Median: d.P50, Min: d.Min, Max: d.Max, Runs: d.N}
}

// Within is how far the farthest run lies from the median, as a fraction of
// the median: "1,893 ±4%" says every run lies within 4% of 1,893. With
// three to five runs this says more than an IQR, which needs more runs to
// mean anything; 0 for a single run or an undefined figure.
func (s Spread) Within() float64 {
	if s.Runs < 2 || s.Median == 0 {
		return 0
	}
	return max(s.Max-s.Median, s.Median-s.Min) / math.Abs(s.Median)
}

// Over is a provider's headline figures over its runs, each from the
// run's own figure as the verdict takes it (Contender): output speed (the
// run's median over its completed streams, tok/s), TTFT and total time
// (the run's median, in nanoseconds), and with --finish-at N the time to N
// tokens (nanoseconds: N ÷ the run's Contender speed).
type Over struct {
	Speed, TTFT, Total, TimeToN Spread
}

// OverRuns is c's figures over its runs; finishAt is --finish-at's N (0:
// none, Speed is the output speed; set, Speed is empty and TimeToN holds
// the figure the verdict compares).
func OverRuns(c Contender, finishAt int) Over {
	durations := func(d []time.Duration) []float64 {
		v := make([]float64, len(d))
		for i, x := range d {
			v[i] = math.NaN() // 0: the run had none
			if x > 0 {
				v[i] = float64(x)
			}
		}
		return v
	}
	o := Over{TTFT: SpreadOf(durations(c.TTFT)), Total: SpreadOf(durations(c.Total))}
	if finishAt <= 0 {
		o.Speed = SpreadOf(c.Speeds)
		return o
	}
	times := slices.Clone(c.Speeds)
	for i, rate := range times {
		times[i] = float64(finishAt) / rate * float64(time.Second) // NaN stays NaN
	}
	o.TimeToN = SpreadOf(times)
	return o
}
