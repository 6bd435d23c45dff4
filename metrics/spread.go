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
// run's own figure as the verdict takes it (Contender): TTFT and total time
// (the run's median, in nanoseconds) and the figure the verdict compares
// (Metric), as a speed or as a time, whichever the figure is:
//   - Speed (tok/s): the output speed (VerdictMetric) or the prefill
//     estimate (PrefillMetric);
//   - Time (nanoseconds): the time to N tokens with --finish-at N
//     (N ÷ the run's rate), or a workload's time (to a complete tool call,
//     to valid JSON, to a warm first token, for the conversation: 1 ÷ the
//     run's rate), so that a time is never shown as "tok/s".
type Over struct {
	Metric                   string
	Speed, TTFT, Total, Time Spread
}

// OverRuns is c's figures over its runs, the compared figure as metric
// (the verdict's Metric: one for every provider, whatever a failed
// provider's own runs read as); finishAt is --finish-at's N.
func OverRuns(c Contender, metric string, finishAt int) Over {
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
	o := Over{Metric: metric, TTFT: SpreadOf(durations(c.TTFT)), Total: SpreadOf(durations(c.Total))}
	if IsSpeed(metric) {
		o.Speed = SpreadOf(c.Speeds)
		return o
	}
	work := 1.0 // the workloads' rates are 1 ÷ their time
	if o.Metric == FinishMetric {
		work = float64(finishAt)
	}
	times := slices.Clone(c.Speeds)
	for i, rate := range times {
		times[i] = work / rate * float64(time.Second) // NaN stays NaN
	}
	o.Time = SpreadOf(times)
	return o
}

// IsSpeed says whether the verdict's metric is a speed (tok/s: output,
// prefill) rather than a time its rate is the inverse of.
func IsSpeed(metric string) bool {
	return metric == VerdictMetric || metric == PrefillMetric
}
