package metrics

import (
	"cmp"
	"slices"
	"time"

	"tpsrace/format"
)

// TokenCountsDiffer reports whether a provider's own token count differs
// from the o200k count of the same text by more than 5% of the o200k count:
// then both are shown, since the provider's tokenizer (or its usage figure)
// does not count the text as o200k does. 95 or 105 against 100 do not differ.
func TokenCountsDiffer(provider, o200k int) bool {
	return o200k > 0 && max(provider-o200k, o200k-provider)*20 > o200k
}

// TokensText writes a count of output tokens as every view does: "~1,201"
// when it is an o200k estimate (source is not SourceUsage), "1,201 (o200k
// 1,150)" when the provider's count and o200k's differ (TokenCountsDiffer).
func TokensText(tokens, o200k int, source string) string {
	if source != SourceUsage {
		return "~" + format.Count(tokens)
	}
	s := format.Count(tokens)
	if TokenCountsDiffer(tokens, o200k) {
		s += " (o200k " + format.Count(o200k) + ")"
	}
	return s
}

// Standing is what ranking reads of one provider.
type Standing struct {
	Speed    float64 // per-user output speed (median across streams), when HasSpeed
	HasSpeed bool
	TTFT     time.Duration // median TTFT, when HasTTFT
	HasTTFT  bool
	Failed   bool // every stream ended and none completed
}

// Rank orders providers best first and returns their indexes: providers
// with an output speed first, fastest first; then those without one that
// have not failed (still waiting, or one-event answers); failed ones last.
// Ties go to the lower TTFT (a provider with none after), then to the given
// order. The dashboard's leaderboard and bench's report both rank by it.
func Rank(standings []Standing) []int {
	order := make([]int, len(standings))
	for i := range order {
		order[i] = i
	}
	group := func(s Standing) int {
		switch {
		case s.Failed:
			return 2
		case s.HasSpeed:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := standings[a], standings[b]
		if c := cmp.Compare(group(sa), group(sb)); c != 0 {
			return c
		}
		if c := cmp.Compare(sb.Speed, sa.Speed); c != 0 {
			return c
		}
		if sa.HasTTFT != sb.HasTTFT {
			if sa.HasTTFT {
				return -1
			}
			return 1
		}
		return cmp.Compare(sa.TTFT, sb.TTFT)
	})
	return order
}
