package live

import (
	"tpsrace/metrics"
)

// RaceTo adds the race to n tokens (--finish-at) to f, p's figures:
// metrics.SummaryOf's TimeToN of p's streams so far (the median time over
// those that have got there), as bench reads it once they have ended.
func (p *Lane) RaceTo(f *Snapshot, n int) {
	f.FinishAt = n
	streams, _ := p.streamsSoFar(n)
	run := metrics.SummaryOf(streams, n)
	f.TimeToN, f.HasTimeToN = run.TimeToN.P50, run.TimeToN.Has()
}

// StoppedShort is whether f's provider ended its answer before --finish-at's
// N: done, with no stream at N. Such a provider ranks after those that got
// there (metrics.RankFinish), so nobody wins by writing less.
func (f Snapshot) StoppedShort() bool {
	return f.FinishAt > 0 && f.Status == Done && !f.HasTimeToN
}
