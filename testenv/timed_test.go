package testenv

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// timedRecorder stands in for a test: it keeps what Timed logged and
// reported.
type timedRecorder struct {
	testing.TB
	logs, errors []string
}

func (r *timedRecorder) Helper() {}
func (r *timedRecorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *timedRecorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// timed runs Timed over outcomes, one per attempt (the last repeats): a
// load reading ("" none) and whether the attempt missed.
func timed(outcomes ...outcome) (r *timedRecorder, attempts int) {
	r = &timedRecorder{}
	defer func(w func() time.Duration) { runQueueWait = w }(runQueueWait)
	runQueueWait = func() time.Duration { return -1 } // the outcomes' loads only
	Timed(r, func(a *Attempt) {
		o := outcomes[min(attempts, len(outcomes)-1)]
		attempts++
		time.Sleep(500 * time.Millisecond) // a short measurement
		a.Load = o.load
		if o.miss {
			a.Missf("speed 90 tok/s, want 100")
		}
	})
	return r, attempts
}

type outcome = struct {
	load string
	miss bool
}

// A measurement that always misses, on a machine that never quietens (the
// threads wait for a core all the time, so every pause runs to its end):
// five attempts of 2.5 s, the longest of the wall-clock tests', fail
// within 30 s.
func TestAMeasurementThatAlwaysMissesFailsWithin30s(t *testing.T) {
	defer func(w func() time.Duration) { runQueueWait = w }(runQueueWait)
	began := time.Now()
	runQueueWait = func() time.Duration { return time.Since(began) } // waiting all the time
	r := &timedRecorder{}
	attempts := 0
	Timed(r, func(a *Attempt) {
		attempts++
		time.Sleep(2500 * time.Millisecond)
		a.Missf("speed 90 tok/s, want 100")
	})
	took := time.Since(began)
	if attempts != Attempts || len(r.errors) != 1 || took > 30*time.Second {
		t.Errorf("%d attempts, errors %q, %v; want %d attempts, one failure, within 30 s", attempts, r.errors, took, Attempts)
	}
	logged := 0
	for _, l := range r.logs {
		if strings.HasPrefix(l, "attempt ") && strings.Contains(l, "client load: the test's threads waited") {
			logged++
		}
	}
	if logged != Attempts {
		t.Errorf("logs %q, want every attempt logged with its load", r.logs)
	}
}

func TestAMissUnderMeasuredLoadIsRetried(t *testing.T) {
	r, attempts := timed(outcome{"tpsrace used 95% of 2 cores", true}, outcome{"", false})
	if attempts != 2 || len(r.errors) != 0 {
		t.Errorf("%d attempts, errors %q; want a second attempt that passes", attempts, r.errors)
	}
}

func TestAMissWithoutLoadFailsAtOnce(t *testing.T) {
	r, attempts := timed(outcome{"", true}, outcome{"", false})
	if attempts != 1 || len(r.errors) != 1 || !strings.Contains(r.errors[0], "without load") {
		t.Errorf("%d attempts, errors %q; want one attempt and a failure saying no load was measured", attempts, r.errors)
	}
}

func TestWithinNamesTheSide(t *testing.T) {
	for _, tc := range []struct {
		got  float64
		want string
	}{{101.5, "above"}, {98.5, "below"}, {100.9, ""}, {99.1, ""}} {
		var a Attempt
		a.Within("output speed", tc.got, 100, 0.01, "tok/s")
		if got := strings.Join(a.misses, ""); tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%v against 100 ±1%%: %q, want %q", tc.got, got, tc.want)
		}
	}
}

func TestWaitingForACoreIsLoad(t *testing.T) {
	defer func(w func() time.Duration) { runQueueWait = w }(runQueueWait)
	var waited time.Duration
	runQueueWait = func() time.Duration { waited += 20 * time.Millisecond; return waited }
	r := &timedRecorder{}
	attempts := 0
	Timed(r, func(a *Attempt) {
		attempts++
		time.Sleep(100 * time.Millisecond)
		if attempts == 1 {
			a.Missf("TTFT 77ms, want 50ms + at most 2ms")
		}
	})
	if attempts != 2 || len(r.errors) != 0 || !strings.Contains(r.logs[0], "waited 20ms for a core") {
		t.Errorf("%d attempts, errors %q, logs %q; want the wait for a core read as load, and a retry", attempts, r.errors, r.logs)
	}
}
