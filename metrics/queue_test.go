package metrics

import (
	"testing"
	"time"
)

// Four slots for sixteen users: the first four start at once, the rest
// each wait for a slot; their TTFT is far above the fastest one's.
func TestQueuedCountsStreamsThatWaitedForASlot(t *testing.T) {
	ms := time.Millisecond
	var ttfts []time.Duration
	for k := range 12 {
		ttfts = append(ttfts, 120*ms+time.Duration(k/4)*800*ms)
	}
	if got := Queued(ttfts, 4, 2500*ms); got != 12 {
		t.Errorf("8 queued with a first token and 4 still waiting: got %d", got)
	}
	if got := Queued(ttfts, 4, 200*ms); got != 8 {
		t.Errorf("streams still waiting count only past the bound: got %d", got)
	}
	if got := Queued([]time.Duration{350 * ms, 402 * ms, 455 * ms}, 0, time.Second); got != 0 {
		t.Errorf("jitter is no queue: got %d", got)
	}
	if got := Queued(nil, 16, time.Second); got != 0 {
		t.Errorf("no first token yet: got %d", got)
	}
}
