package metrics

import (
	"cmp"
	"slices"
	"time"

	"tpsrace/probes"
)

// TimeToTokens is the time to N output tokens (--finish-at N): release to
// the text event at which the stream's tokens, counted per event in o200k
// (answer and reasoning, the one scale for every provider), reach n. ok is
// false when the stream ended short of n: it stopped before the finish, so
// nobody wins by writing less.
//
// Per-event counts are not negative, so the running count only grows: the
// record finds the event by bisecting its running sums (probes.Events.
// SearchTokens), and a stream short of n costs one look, as the dashboard
// asks every frame.
func TimeToTokens(events probes.Events, n int) (at time.Duration, ok bool) {
	i := events.SearchTokens(n)
	if i == events.Len() {
		return 0, false
	}
	return events.Event(i).At, true
}

// Finish is one provider's standing in a race to N tokens.
type Finish struct {
	Time    time.Duration // median time to N over its streams that reached it
	Reached bool          // some stream reached N
	Tokens  int           // tokens per user (counted per event), for those short of N
	Failed  bool          // no stream completed: ranked last, whatever it streamed
}

// RankFinish orders providers for --finish-at, best first: those that
// reached N by their time to it, then those that stopped short (or are
// still short), most tokens first, then the failed ones; ties keep the
// given order (the usual ranking). The dashboard's leaderboard and bench
// (Order) rank by it.
func RankFinish(f []Finish) []int {
	order := make([]int, len(f))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		fa, fb := f[a], f[b]
		switch {
		case fa.Failed != fb.Failed:
			if fb.Failed {
				return -1
			}
			return 1
		case fa.Reached != fb.Reached:
			if fa.Reached {
				return -1
			}
			return 1
		case fa.Reached:
			return cmp.Compare(fa.Time, fb.Time)
		}
		return cmp.Compare(fb.Tokens, fa.Tokens)
	})
	return order
}
