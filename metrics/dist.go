package metrics

import (
	"math"
	"slices"
)

// Dist is one figure over the streams that measured it: the median (P50,
// Median's rule), P95 and the extremes. N is how many streams measured it;
// 0 means none did, and the rest is undefined.
type Dist[T ~int64 | ~float64] struct {
	P50, P95, Min, Max T
	N                  int
}

// Has is whether some stream measured the figure.
func (d Dist[T]) Has() bool { return d.N > 0 }

// DistOf the values that are not NaN.
func DistOf[T ~int64 | ~float64](values []T) Dist[T] {
	v := make([]T, 0, len(values))
	for _, x := range values {
		if x == x { // NaN is the one value unequal to itself
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return Dist[T]{}
	}
	slices.Sort(v)
	return Dist[T]{P50: Percentile(v, 50), P95: Percentile(v, 95), Min: v[0], Max: v[len(v)-1], N: len(v)}
}

// Median of the values that are not NaN (Percentile's rule: the mean of
// the middle two of an even count); ok is false when there are none. It is
// the one median of tpsrace: across streams, across runs, in the verdict.
func Median[T ~int64 | ~float64](values []T) (median T, ok bool) {
	d := DistOf(values)
	return d.P50, d.Has()
}

// RoundedMedian is Median rounded to a whole number (half away from zero),
// for counts such as tokens per user; 0 without values.
func RoundedMedian(v []float64) int {
	m, _ := Median(v)
	return int(math.Round(m))
}
