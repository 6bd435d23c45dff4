package metrics

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The selection gives what sorting gives, on gaps as streams make them:
// steady (many equal), jittered, sorted, reversed, one outlier, tiny.
func TestPercentileOfIsPercentileOfSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func(n int) []time.Duration{
		"steady": func(n int) []time.Duration {
			v := make([]time.Duration, n)
			for i := range v {
				v[i] = 50 * time.Microsecond * time.Duration(1+rng.IntN(2))
			}
			return v
		},
		"jittered": func(n int) []time.Duration {
			v := make([]time.Duration, n)
			for i := range v {
				v[i] = time.Duration(rng.Int64N(int64(time.Millisecond))) - 1000
			}
			return v
		},
		"sorted": func(n int) []time.Duration {
			v := make([]time.Duration, n)
			for i := range v {
				v[i] = time.Duration(i)
			}
			return v
		},
		"reversed": func(n int) []time.Duration {
			v := make([]time.Duration, n)
			for i := range v {
				v[i] = time.Duration(n - i)
			}
			return v
		},
		"stall": func(n int) []time.Duration {
			v := make([]time.Duration, n)
			for i := range v {
				v[i] = time.Millisecond
			}
			v[n/3] = time.Second
			return v
		},
	}
	for name, shape := range shapes {
		for _, n := range []int{1, 2, 3, 7, 100, 2001} {
			v := shape(n)
			sorted := slices.Sorted(slices.Values(v))
			// Each percentile from values in any order, and each after the
			// one below it, as ITL reads them.
			chained, from := slices.Clone(v), 0
			for _, p := range []float64{0, 2.5, 50, 95, 97.5, 99, 100} {
				want := Percentile(sorted, p)
				if got, _ := percentileOf(slices.Clone(v), p, 0); got != want {
					t.Errorf("%s, %d values: p%g %v, sorted %v", name, n, p, got, want)
				}
				var got time.Duration
				if got, from = percentileOf(chained, p, from); got != want {
					t.Errorf("%s, %d values: p%g after the one below %v, sorted %v", name, n, p, got, want)
				}
			}
		}
	}
}
