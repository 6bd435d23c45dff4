package metrics

import (
	"math"
	"time"
)

// The bench JSON's units (docs/BENCH.md), one rule for every figure the
// document writes, whether a metrics type writes itself (Roofline) or
// package benchdoc writes it: a duration in milliseconds to the
// microsecond, a speed in tok/s to 0.01, a share to the precision its
// key's description gives.

// JSONMillis is d in the JSON: milliseconds, to the microsecond.
func JSONMillis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// JSONSpeed is a speed in the JSON: tok/s, to 0.01.
func JSONSpeed(v float64) float64 { return JSONRound(v, 100) }

// JSONRound is v to 1/per: JSONRound(0.71734, 1e4) is 0.7173.
func JSONRound(v, per float64) float64 { return math.Round(v*per) / per }
