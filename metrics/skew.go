package metrics

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/probes"
)

// Skew is a race's start skew, the one definition that the dashboard's
// header, the start_skew flag, the bench JSON, merge and replay all show:
// how far apart the race's requests actually left.
//
// Spread is the latest minus the earliest send instant over every stream
// that was sent, each on the race's common clock: on one machine, since
// the release (probes.Result.Sent); in a merged race, since the common
// instant, read by the clock of the host that sent it (Host.Offset +
// Sent). The barrier lets every stream go at once; the spread is what
// scheduling, and across hosts their releases, added.
//
// Bound is what the hosts' clocks put on it, ±: the two largest estimated
// errors among the clocks of the hosts whose streams were sent, added,
// since an instant read on one host and one read on another may each be
// off by its clock's error, either way. One machine's race has no bound
// (one clock reads every instant), nor has one host's part of a merged
// race. Known is false when, across hosts, one's clock is not synchronised
// (Unsynced names them): the skew is then unknown, not invented. Hosts
// counts the hosts; 0 on one machine's race.
type Skew struct {
	Spread, Bound time.Duration
	Known         bool
	Hosts         int
	Unsynced      []string
}

// StartSkewOf is the start skew of a race's streams; ok is false under two
// streams sent (a stream never released was not sent).
func StartSkewOf(streams []probes.Result) (s Skew, ok bool) {
	var sent []time.Duration
	var hosts []*probes.Host
	for i := range streams {
		r := &streams[i]
		if r.Release.IsZero() {
			continue
		}
		at := r.Sent
		if h := r.Host; h != nil {
			at += h.Offset
			if !slices.ContainsFunc(hosts, func(seen *probes.Host) bool { return seen.Name == h.Name }) {
				hosts = append(hosts, h)
			}
		}
		sent = append(sent, at)
	}
	if len(sent) < 2 {
		return Skew{}, false
	}
	s = Skew{Spread: slices.Max(sent) - slices.Min(sent), Known: true}
	if len(hosts) < 2 { // one host's streams (one probe's part of a merged race): one clock reads them all
		return s, true
	}
	s.Hosts = len(hosts)
	var errs []time.Duration
	for _, h := range hosts {
		if !h.Synchronised {
			s.Unsynced = append(s.Unsynced, h.Name)
		}
		errs = append(errs, h.ClockError)
	}
	if len(s.Unsynced) > 0 {
		return Skew{Hosts: len(hosts), Unsynced: s.Unsynced}, true
	}
	slices.Sort(errs)
	s.Bound = errs[len(errs)-1] + errs[len(errs)-2]
	return s, true
}

// Over says whether the skew may be over limit: its spread and bound
// together are, or it is unknown (no clock vouches that it was under).
func (s Skew) Over(limit time.Duration) bool {
	return !s.Known || s.Spread+s.Bound > limit
}

// String is the skew as every view words it: "312µs" on one machine,
// "4.7ms ± 0.8ms across 3 probes" on a merged race (both in ms, as the
// clocks' errors are), "unknown across 3 probes (the clock of sin is not
// synchronised)".
func (s Skew) String() string {
	across := ""
	if s.Hosts > 0 {
		across = " across " + strconv.Itoa(s.Hosts) + " probes"
	}
	switch {
	case !s.Known:
		which := "the clock of " + s.Unsynced[0] + " is"
		if len(s.Unsynced) > 1 {
			which = "the clocks of " + strings.Join(s.Unsynced, ", ") + " are"
		}
		return "unknown" + across + " (" + which + " not synchronised)"
	case s.Hosts > 0:
		return millis(s.Spread) + " ± " + millis(s.Bound) + across
	case s.Spread > StartSkewLimit && s.Spread.Round(100*time.Microsecond) <= StartSkewLimit:
		// a flagged skew reads over the limit: not "5.0ms, over 5ms"
		return overLimit(s.Spread, StartSkewLimit)
	}
	return format.Precise(s.Spread)
}

// millis is d in milliseconds to 0.1: "4.7ms", "0.8ms".
func millis(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + "ms"
}
