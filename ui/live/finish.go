package live

import (
	"time"

	"tpsrace/metrics"
)

// RaceTo adds the race to n tokens (--finish-at) to f, p's figures: the
// median of metrics.TimeToTokens over p's streams that have got there
// (settled: metrics.Run's TimeToN, by the same rule).
func (p *Provider) RaceTo(f *Figures, n int) {
	f.FinishAt = n
	if run, ok := p.run(n); ok {
		f.TimeToN, f.HasTimeToN = run.TimeToN.P50, run.TimeToN.Has()
		return
	}
	var times []time.Duration
	for _, s := range p.Streams {
		if at, ok := metrics.TimeToTokens(s.Events, n); ok {
			times = append(times, at)
		}
	}
	f.TimeToN, f.HasTimeToN = metrics.Median(times)
}

// StoppedShort is whether f's provider ended its answer before --finish-at's
// N: done, with no stream at N. Such a provider ranks after those that got
// there (metrics.RankFinish), so nobody wins by writing less.
func (f Figures) StoppedShort() bool {
	return f.FinishAt > 0 && f.Status == Done && !f.HasTimeToN
}
