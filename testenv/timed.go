package testenv

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// Attempts is the most times Timed measures. Five, not three: other
// packages' tests hold both of CI's cores in bursts of seconds, and three
// attempts of a 2-second race all fell in them once (a CI run, 2026-12-07).
const Attempts = 5

// Between attempts Timed lets a burst of other packages' tests pass: it
// waits for a quiet quarter second (the threads waiting for a core less
// than RunQueueShare of it), for at most quietWait; where the kernel does
// not say, it waits a second. Not part of any measurement.
const (
	quietWindow = 250 * time.Millisecond
	quietWait   = 3 * time.Second
)

// RunQueueShare: the test process's threads waiting on the kernel's run
// queue for this share of an attempt's wall time, in all, is load. The
// referee's own reading (probes.ClientLoad) sees tpsrace's CPU and its
// goroutines' wait for a thread, not a thread's wait for a core: with
// other packages' tests holding both cores (load average 5 on 2 cores) a
// TTFT came 27 ms late with no client_saturated, while the threads waited
// 75–330 ms per second for a core.
const RunQueueShare = 0.01

// runQueueWait is osRunQueueWait, replaced in Timed's own tests.
var runQueueWait = osRunQueueWait

// Attempt is what one measurement of a timed test found.
type Attempt struct {
	// Load: the client's own evidence that it was loaded while it
	// measured, as the referee reads it (metrics.Saturation of the race's
	// probes.ClientLoad: its CPU share, its wake delay p95 against the
	// least gap a stream is given);
	// "" when it measured none. Timed adds its own reading of the kernel's
	// run queue (RunQueueShare).
	Load   string
	misses []string
}

// Missf records a bound the attempt missed.
func (a *Attempt) Missf(format string, args ...any) {
	a.misses = append(a.misses, fmt.Sprintf(format, args...))
}

// Within checks a two-sided bound, |got − want| ≤ tol × want, and records a
// miss naming the side it fell on. Both sides hold on the same attempt: a
// late first token shortens a span and raises a speed, a late last one
// lowers it, so noise can push either way and neither side is given to it.
func (a *Attempt) Within(what string, got, want, tol float64, unit string) {
	if d := got/want - 1; d > tol || d < -tol {
		side := "above"
		if d < 0 {
			side = "below"
		}
		a.Missf("%s %.6g %s is %.2f%% %s %.6g, want within ±%.4g%%", what, got, unit, 100*math.Abs(d), side, want, 100*tol)
	}
}

// Timed is the rule for a test that holds a figure measured on the wall
// clock (a speed, a gap, a TTFT) against a server whose timing is known.
// measure runs once; a miss fails the test at once unless the client
// measured its own load during that attempt (Attempt.Load), the one thing
// that can explain a late reading; then it measures again, at most
// Attempts times in all. Every attempt is logged with its load reading.
//
// So a real regression fails on a quiet machine at the first attempt, and
// on a loaded one within five; a bound is never rescued by an attempt
// that noise happened to favour without the client having seen the noise.
// A property that is not a timing (a connection reused, a token count) is
// checked with t.Error or t.Fatal directly, outside the rule: load cannot
// explain it.
func Timed(t testing.TB, measure func(a *Attempt)) {
	t.Helper()
	for n := 1; ; n++ {
		var a Attempt
		began, waited := time.Now(), runQueueWait()
		measure(&a)
		if kernel := kernelLoad(began, waited); kernel != "" {
			a.Load = strings.TrimPrefix(a.Load+"; "+kernel, "; ")
		}
		load := cmp.Or(a.Load, "none measured")
		if len(a.misses) == 0 {
			t.Logf("attempt %d of at most %d met every bound (client load: %s)", n, Attempts, load)
			return
		}
		t.Logf("attempt %d of at most %d missed (client load: %s):\n%s", n, Attempts, load, strings.Join(a.misses, "\n"))
		switch {
		case a.Load == "":
			t.Errorf("missed without load measured on the client, so no retry:\n%s", strings.Join(a.misses, "\n"))
			return
		case n == Attempts:
			t.Errorf("missed on %d attempts, each under load (the last: %s):\n%s", n, a.Load, strings.Join(a.misses, "\n"))
			return
		}
		if waited := waitQuiet(); waited > quietWindow {
			t.Logf("waited %v for a quiet moment", waited.Round(time.Millisecond))
		}
	}
}

// waitQuiet waits for a quiet window, at most quietWait, and says how long
// it waited.
func waitQuiet() time.Duration {
	began := time.Now()
	for time.Since(began) < quietWait {
		w := runQueueWait()
		if w < 0 {
			time.Sleep(time.Second)
			break
		}
		time.Sleep(quietWindow)
		if runQueueWait()-w < time.Duration(RunQueueShare*float64(quietWindow)) {
			break
		}
	}
	return time.Since(began)
}

// kernelLoad is the evidence that the test's threads waited for a core
// since began, when they had waited waited before (RunQueueShare); "" when
// they did not, or the kernel does not say.
func kernelLoad(began time.Time, waited time.Duration) string {
	wall, w := time.Since(began), runQueueWait()
	if waited < 0 || w < 0 || w-waited < time.Duration(RunQueueShare*float64(wall)) {
		return ""
	}
	return fmt.Sprintf("the test's threads waited %v for a core in %v", (w - waited).Round(time.Millisecond), wall.Round(time.Millisecond))
}
