package metrics

import (
	"slices"
	"time"
)

// QueueFactor defines a queued stream: one whose first token came (or has
// not come yet) more than QueueFactor × the fastest first token among its
// provider's simultaneous streams. A server with fewer slots than users
// starts the others only as slots free up, so their TTFT grows by whole
// answers, while the fastest stream shows the model's own time to first
// token; network jitter stays well under 2×.
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
	bound := QueueFactor * slices.Min(ttfts)
	n := 0
	for _, t := range ttfts {
		if t > bound {
			n++
		}
	}
	if now > bound {
		n += waiting
	}
	return n
}
