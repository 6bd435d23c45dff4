package metrics

import (
	"math/bits"
	"slices"
)

// percentileOf is Percentile of values in any order, which it reorders:
// a selection, linear in len(v), where Percentile needs v sorted (a
// stream's thousands of gaps, once per stream, cost more sorted than
// everything else Compute does with them). from says how much of that
// order an earlier call left: v[:from] holds nothing greater than anything
// in v[from:], 0 for values in any order; it returns the rank it put in
// place, the from of a next call for a percentile no lower, which selects
// in v[from:] alone (ITL's p95 and p99 after its p50: a half and a
// twentieth of the gaps, not all of them twice more).
func percentileOf[T ~int64 | ~float64](v []T, p float64, from int) (T, int) {
	if len(v) == 0 {
		return 0, 0
	}
	lo, hi, frac := ranks(len(v), p)
	selectRank(v[from:], lo-from)
	b := v[lo]
	if hi > lo {
		b = slices.Min(v[lo+1:]) // the next in sorted order: none after lo is smaller
	}
	return between(v[lo], b, frac), lo
}

// selectRank reorders v so that v[k] holds what sorting would put there,
// nothing before it greater and nothing after it smaller: a quickselect
// with a three-way partition (a steady stream's gaps repeat), falling back
// to sorting the rest when the pivots keep choosing badly.
func selectRank[T ~int64 | ~float64](v []T, k int) {
	lo, hi := 0, len(v) // v[lo:hi] holds rank k
	for budget := 2 * bits.Len(uint(len(v))); hi-lo > 1; budget-- {
		if budget == 0 {
			slices.Sort(v[lo:hi])
			return
		}
		pivot := median3(v[lo], v[lo+(hi-lo)/2], v[hi-1])
		// v[lo:lt] < pivot, v[lt:i] == pivot, v[gt:hi] > pivot
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch {
			case v[i] < pivot:
				v[lt], v[i] = v[i], v[lt]
				lt, i = lt+1, i+1
			case v[i] > pivot:
				gt--
				v[i], v[gt] = v[gt], v[i]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return // v[k] equals the pivot, in its place
		}
	}
}

func median3[T ~int64 | ~float64](a, b, c T) T {
	return max(min(a, b), min(max(a, b), c))
}
