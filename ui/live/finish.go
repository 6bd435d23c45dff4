package live

import (
	"slices"
	"time"

	"tpsrace/metrics"
)

// RaceTo adds the race to n tokens (--finish-at) to f, p's figures: the
// median of metrics.TimeToTokens over p's streams that have got there.
func (p *Provider) RaceTo(f *Figures, n int) {
	f.FinishAt = n
	var times []time.Duration
	for _, s := range p.Streams {
		if at, ok := metrics.TimeToTokens(slices.Values(s.Events), n); ok {
			times = append(times, at)
		}
	}
	f.TimeToN, f.HasTimeToN = median(times)
}
