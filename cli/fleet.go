package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"tpsrace/recording"
	"tpsrace/timesync"
)

// clockReader reads this machine's clock discipline; tests replace it.
var clockReader timesync.Reader = timesync.Kernel

// fleetFlags place a race in a fleet of probes: where it runs and the
// wall-clock instant it is released at, the same on every host.
type fleetFlags struct {
	startAt   string
	probeName string

	start time.Time      // --start-at resolved; zero without it
	clock timesync.State // read when --start-at is given
}

func (f *fleetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.startAt, "start-at", "", "release the race at this wall-clock instant, RFC 3339 (2026-12-04T15:00:00Z) or +DURATION from now (+30s); the same on every host of a fleet (docs/FLEET.md)")
	fs.StringVar(&f.probeName, "probe-name", defaultProbeName(), "where this race runs (a region, a host): recorded, and a merged race's lanes are provider@probe")
}

// defaultProbeName is the host name, the probe `watch` and recordings are
// labelled with unless told otherwise.
func defaultProbeName() string {
	host, _ := os.Hostname()
	return host
}

// resolve checks the flags against now: --start-at parsed (an instant
// already past is refused, before anything is sent) and, with it, the
// clock's discipline read and, when unsynchronised, said loudly on stderr.
func (f *fleetFlags) resolve(now time.Time, stderr io.Writer) error {
	if f.probeName == "" || strings.ContainsAny(f.probeName, "@\n") {
		return usageError{fmt.Errorf("--probe-name %q: want a non-empty name without @ (lanes of a merged race are provider@probe)", f.probeName)}
	}
	if f.startAt == "" {
		return nil
	}
	start, err := parseStartAt(f.startAt, now)
	if err != nil {
		return usageError{err}
	}
	if !start.After(now) {
		return usageError{fmt.Errorf("--start-at %s is already past (it is now %s): nothing was sent; pick a later instant", f.startAt, now.UTC().Format(time.RFC3339Nano))}
	}
	f.start = start
	f.clock = clockReader.Read()
	if !f.clock.Synchronised {
		fmt.Fprintf(stderr, "WARNING: this machine's clock is %s: --start-at releases at this clock's idea of %s, which may be far from other hosts'; a merge calls the start skew unknown\n",
			f.clock, start.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// parseStartAt reads RFC 3339 or "+DURATION" (from now).
func parseStartAt(s string, now time.Time) (time.Time, error) {
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := time.ParseDuration(rest)
		if err != nil || d <= 0 {
			return time.Time{}, fmt.Errorf("--start-at %q: want a positive duration after + (+30s, +2m)", s)
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--start-at %q: want an RFC 3339 instant (2026-12-04T15:00:00Z) or +DURATION (+30s)", s)
	}
	return t, nil
}

// errStartPassed: readying the race took longer than the time left to --start-at.
var errStartPassed = errors.New("the --start-at instant passed while the race was being readied: nothing was sent; pick a later instant")

// stillAhead is errStartPassed (a usage error) once the start is past.
func (f *fleetFlags) stillAhead(now time.Time) error {
	if !f.start.IsZero() && !f.start.After(now) {
		return usageError{errStartPassed}
	}
	return nil
}

// header adds where the race ran and, with --start-at, its instant and
// clock to a recording's header.
func (f *fleetFlags) header(h recording.Header) recording.Header {
	h.Probe = f.probeName
	if !f.start.IsZero() {
		start, clock := f.start.UTC(), f.clock
		h.StartAt, h.Clock = &start, &clock
	}
	return h
}

// note is the dashboard header's word on the release instant and the
// clock, short enough for 80 columns: an unsynchronised clock first.
func (f *fleetFlags) note() string {
	if f.start.IsZero() {
		return ""
	}
	release := "release " + f.start.UTC().Format("15:04:05.000Z")
	if !f.clock.Synchronised {
		return "clock NOT synchronised · " + release
	}
	return release + " · clock ±" + timesync.Millis(f.clock.EstError)
}
