package metrics

import (
	"time"

	"tpsrace/config"
)

// The SLO's bounds, as watch labels them and MeetsSLO names what a stream
// missed. A failed stream misses BoundCompleted.
const (
	BoundTTFT      = "ttft"
	BoundOutputTPS = "output_tps"
	BoundE2E       = "e2e"
	BoundCompleted = "completed"
)

// SLOBounds are the bounds slo sets, in order.
func SLOBounds(slo config.SLO) []string {
	var b []string
	if slo.TTFT > 0 {
		b = append(b, BoundTTFT)
	}
	if slo.OutputTPS > 0 {
		b = append(b, BoundOutputTPS)
	}
	if slo.E2E > 0 {
		b = append(b, BoundE2E)
	}
	return b
}

// MeetsSLO says which of slo's bounds stream f missed: its TTFT above
// slo.TTFT (or no text at all), its output speed below slo.OutputTPS (or
// none: a one-event answer has no speed), its E2E above slo.E2E. A stream
// that failed also misses BoundCompleted: a failure is never good, however
// fast it was until then. It met the SLO when it missed nothing.
func MeetsSLO(f Figures, slo config.SLO) (missed []string) {
	if !f.Completed {
		missed = append(missed, BoundCompleted)
	}
	if slo.TTFT > 0 && (!f.HasTTFT || f.TTFT > slo.TTFT) {
		missed = append(missed, BoundTTFT)
	}
	if slo.OutputTPS > 0 && (!f.HasOutputTPS || f.OutputTPS < slo.OutputTPS) {
		missed = append(missed, BoundOutputTPS)
	}
	if slo.E2E > 0 && f.E2E > slo.E2E {
		missed = append(missed, BoundE2E)
	}
	return missed
}

// Goodput is how much of a provider's output met its SLO: Met of Streams
// met every bound (Share = Met ÷ Streams); PerSecond, at C > 1, is Met ÷
// the races' time (each race's release to its last stream's end, summed):
// good answers served per second under that load.
type Goodput struct {
	Met, Streams int
	Share        float64
	PerSecond    float64
	HasPerSecond bool
}

// JudgeSLO is s under slo (MeetsSLO); s as it is without an SLO.
func (s Stream) JudgeSLO(slo config.SLO) Stream {
	if slo.Set() {
		s.UnderSLO, s.SLOMissed = true, MeetsSLO(s.Figures, slo)
	}
	return s
}

// withPerSecond is g with PerSecond over raceTime at concurrency (only
// above 1: at C = 1 it is the share by another name).
func (g Goodput) withPerSecond(raceTime time.Duration, concurrency int) Goodput {
	if concurrency > 1 && raceTime > 0 {
		g.PerSecond, g.HasPerSecond = float64(g.Met)/raceTime.Seconds(), true
	}
	return g
}
