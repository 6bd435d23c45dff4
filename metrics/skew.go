package metrics

import (
	"slices"
	"time"
)

// StartSkew is how far apart a race's requests actually left: the latest
// minus the earliest instant, since the release, at which a stream began
// its request (probes.Result.Sent). The barrier lets every stream go at
// once; the skew is what the scheduler added. ok is false under two streams.
func StartSkew(sent []time.Duration) (skew time.Duration, ok bool) {
	if len(sent) < 2 {
		return 0, false
	}
	return slices.Max(sent) - slices.Min(sent), true
}
