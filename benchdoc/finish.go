package benchdoc

import (
	"slices"

	"tpsrace/metrics"
)

// finishRun fills r's time to n tokens (metrics.TimeToTokens) when n > 0.
func finishRun(r *Stream, s metrics.Stream, n int) {
	switch {
	case n <= 0:
	case s.ReachedN:
		r.TimeToNms = ptr(ms(s.TimeToN))
	default:
		r.StoppedShort = true
	}
}

func finishAt(b *Bench) int {
	if b.FinishAt == nil {
		return 0
	}
	return *b.FinishAt
}

// Ranked returns the providers best first (Provider.Rank, metrics.Order:
// the dashboard's rule): by median output speed, then median TTFT;
// providers with no completed stream come last. With --finish-at, by the
// time to N tokens.
func (b *Bench) Ranked() []Provider {
	var ranked []Provider
	for _, i := range b.RankedIndexes() {
		ranked = append(ranked, b.Providers[i])
	}
	return ranked
}

// RankedIndexes is Ranked as indexes into b.Providers, best first.
func (b *Bench) RankedIndexes() []int {
	order := make([]int, len(b.Providers))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return b.Providers[x].Rank - b.Providers[y].Rank })
	return order
}

// rank sets each provider's Rank by metrics.Order of pooled (each one's
// ranked run), a race of reasoning models by time to answer
// (metrics.ByAnswer over pooled and every provider's verdict runs).
func (b *Bench) rank(pooled []metrics.Summary) {
	metrics.ByAnswer(slices.Concat(b.runs, [][]metrics.Summary{pooled})...)
	for rank, i := range metrics.Order(pooled) {
		b.Providers[i].Rank = rank + 1
	}
}
