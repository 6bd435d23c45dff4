package metrics

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/probes"
)

// The client_saturated flag's evidence: whether the tpsrace that measured
// a race or a stream was its bottleneck (its CPU, or how late it stamped
// events against the stream's gap between them), apart from the
// referee's other flags, which judge what a provider sent.

// providerLoad is the client load of a provider's streams (one tpsrace
// measured them all, or none).
func providerLoad(streams []probes.Result) *probes.ClientLoad {
	for i := range streams {
		if streams[i].Load != nil {
			return streams[i].Load
		}
	}
	return nil
}

// saturation is the evidence that the tpsrace which measured stream r was
// its bottleneck, "" when it was not (or its load is unknown): its CPU
// was saturated, or it stamped the stream's events late by more than
// LateShare of the stream's gap (lateLimit). A stream with nothing timed
// (refused, or failed before its first event) has no figure a busy client
// could bend, and its race may have lasted a fraction of a millisecond,
// over which a share of CPU says nothing: it is never flagged.
func saturation(r *probes.Result, fig Figures) string {
	limit, gap := lateLimit(r, fig)
	if limit == 0 {
		return ""
	}
	return loadEvidence(r.Load, limit, "the stream's "+gap)
}

// Saturation is the evidence that the tpsrace which measured a race was
// loaded enough to bend the figures of some stream, whatever the stream:
// its CPU saturated, or its wake p95 over LateShare of MinGap, the least
// lateness the referee names (a stream's own flag is judged against its
// own gap, saturation, as a sweep's level is: ClientSaturatedIn). A timed
// test retries on it (testenv.Timed); "" when it was not (or its load is
// unknown).
func Saturation(load *probes.ClientLoad) string {
	return loadEvidence(load, time.Duration(LateShare*float64(MinGap)), "the least gap a stream is given, "+format.Duration(MinGap))
}

// loadEvidence is the evidence of load's saturation: its CPU, or its wake
// p95 over limit (LateShare of the gap, in words); "" for neither.
func loadEvidence(load *probes.ClientLoad, limit time.Duration, gap string) string {
	if load == nil {
		return ""
	}
	var why []string
	if load.CPU >= SaturatedCPU {
		why = append(why, fmt.Sprintf("tpsrace used %.0f%% of %d cores", load.CPU*100, load.GOMAXPROCS))
	}
	if limit > 0 && load.WakeP95 > limit {
		why = append(why, "1 event in 20 stamped "+overLimit(load.WakeP95, limit)+" late or more (p95), over "+
			strconv.Itoa(int(LateShare*100))+"% of "+gap)
	}
	return strings.Join(why, "; ")
}

// lateLimit is LateShare of stream r's gap, and the gap in words ("2.1ms
// mean gap between events"). The gap is the mean gap between its text
// events, which events read together in a burst leave as it is (unlike
// the median ITL), at least MinGap; with under two text events (a tool
// call's deltas, a one-event answer), its first event's or delta's time
// from the release, the figure such a stream gives. 0 for a stream with
// neither.
func lateLimit(r *probes.Result, fig Figures) (time.Duration, string) {
	first, _ := r.Events.First()
	last, _ := r.Events.Last()
	switch n := r.Events.Len(); {
	case n >= 2:
		gap := (last.At - first.At) / time.Duration(n-1)
		if gap < MinGap {
			return time.Duration(LateShare * float64(MinGap)), format.Precise(gap) + " mean gap between events, taken as " + format.Duration(MinGap)
		}
		return time.Duration(LateShare * float64(gap)), format.Precise(gap) + " mean gap between events"
	case fig.HasTTFT && fig.TTFT > 0:
		return time.Duration(LateShare * float64(fig.TTFT)), format.Duration(fig.TTFT) + " TTFT"
	case len(r.ToolDeltas) > 0 && r.ToolDeltas[0].At > 0:
		return time.Duration(LateShare * float64(r.ToolDeltas[0].At)), format.Duration(r.ToolDeltas[0].At) + " to its first tool-call delta"
	}
	return 0, ""
}

// overLimit is d, which exceeds limit, as format.Duration writes it, or in
// milliseconds to as many decimals (to the µs) as it takes to read over
// limit: "3ms", "1.3ms", "1.05ms" (the runtime's scheduling bucket just
// over 1ms), never "1ms, over 1ms".
func overLimit(d, limit time.Duration) string {
	d = d.Truncate(time.Microsecond) // bench JSON's precision, as format.Duration
	if d >= time.Second || d.Round(time.Millisecond) > limit {
		return format.Duration(d)
	}
	dec, unit := 1, 100*time.Microsecond
	for dec < 3 && d.Round(unit) <= limit {
		dec, unit = dec+1, unit/10
	}
	return strconv.FormatFloat(float64(d.Round(unit))/float64(time.Millisecond), 'f', dec, 64) + "ms"
}
