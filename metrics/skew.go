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

// CrossHostSkew is a merged race's start skew across hosts: the latest
// minus the earliest instant at which a host's first request left, each
// read by its own clock as an offset from the common start instant
// (starts), and the bound its clocks put on it: the estimated errors
// (errs) of those two hosts added, since each clock may be off by its
// error either way. ok is false under two hosts.
func CrossHostSkew(starts, errs []time.Duration) (skew, bound time.Duration, ok bool) {
	skew, ok = StartSkew(starts)
	if !ok {
		return 0, 0, false
	}
	first, last := slices.Index(starts, slices.Min(starts)), slices.Index(starts, slices.Max(starts))
	return skew, errs[first] + errs[last], true
}
