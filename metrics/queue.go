package metrics

import (
	"slices"
	"time"
)

// QueueFactor defines a queued stream: one whose first token came (or has
// not come yet) more than QueueFactor × the median TTFT of its provider's
// streams. At C > 1 a server with fewer slots than users serves the rest
// only when a slot frees up: their TTFT grows with concurrency while the
// median stays at the model's own time to first token.
const QueueFactor = 2

// Queued counts the queued streams among one provider's simultaneous
// streams at now (time since release): ttfts are the first-token times
// known so far, waiting the streams still running without a first token
// (they count once now exceeds the bound). Zero while no stream has a
// first token: there is nothing to compare with.
func Queued(ttfts []time.Duration, waiting int, now time.Duration) int {
	if len(ttfts) == 0 {
		return 0
	}
	sorted := slices.Clone(ttfts)
	slices.Sort(sorted)
	bound := QueueFactor * Percentile(sorted, 50)
	n := 0
	for _, t := range sorted {
		if t > bound {
			n++
		}
	}
	if now > bound {
		n += waiting
	}
	return n
}
