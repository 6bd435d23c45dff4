package probes

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// ClientLoad is how busy tpsrace itself was during a race, so that a race
// can say when it measured its own client rather than the providers
// (metrics' client_saturated flag).
type ClientLoad struct {
	// CPU: the process's CPU time over the race ÷ (GOMAXPROCS × the race's
	// wall time): 1 means every core Go may use was busy. NaN where the
	// platform does not report process CPU time.
	CPU float64
	// GOMAXPROCS: the cores Go could use during the race, which CPU is a
	// share of.
	GOMAXPROCS int
	// WakeP95: the 95th percentile of how late a goroutine woken by data
	// arriving ran, over the race's time: a probe's read is woken the same
	// way, so one event in twenty is stamped at least this late. Measured
	// by a wake probe (wakeGap), not the runtime's scheduling histogram, which
	// pools every goroutine and in a short race holds too few waits for a
	// tail. The 95th, not the 99th: a 1-second race holds 200 wakes, whose
	// p99 is its second-worst, one stall of the box in a second. 0: not
	// measured (a recording from before it).
	WakeP95 time.Duration
}

// wakeEvery is how often the wake probe writes a byte to its pipe in a
// race's first second: 200 samples, enough for a p95 that is not one
// stall. After that the gap doubles each time the race has lasted twice
// as long (10 ms from 1 s, 20 ms from 3 s, wakeSparsest from 7 s), so each
// doubling of a race adds about 200 samples, each weighted by the gap it
// stands for. A sample wakes a process that may be idle, which costs
// about 0.1 ms of CPU on a 2-core VM (docs/METRICS.md, "The client's own
// load"): at 200 a second for the whole of a 10-second race that was 2%
// of a core, as much as the dashboard's drawing.
const (
	wakeEvery    = 5 * time.Millisecond
	wakeSparsest = 8 * wakeEvery
)

// wakeGap is the probe's gap between samples once the race has run for
// raced (since its release).
func wakeGap(raced time.Duration) time.Duration {
	gap := wakeEvery
	for done := time.Second; raced >= done && gap < wakeSparsest; done = 2*done + time.Second {
		gap *= 2
	}
	return gap
}

// loadMeter runs the wake probe from before the release (started at the
// release, its pipe and goroutines delayed the streams' start by
// milliseconds on a busy box) and takes the process's CPU time at the
// release (begin), to subtract from that at the end.
type loadMeter struct {
	start time.Time
	cpu   time.Duration
	wake  *wakeProbe
}

func newLoadMeter() *loadMeter { return &loadMeter{wake: startWakeProbe()} }

// begin is the release: the load is measured from here.
func (m *loadMeter) begin(release time.Time) {
	m.start, m.cpu = release, processCPU()
	m.wake.release(release)
}

// end is the load from begin to now.
func (m *loadMeter) end() *ClientLoad {
	wall := time.Since(m.start)
	l := &ClientLoad{GOMAXPROCS: runtime.GOMAXPROCS(0), CPU: math.NaN()}
	if cpu := processCPU(); cpu >= 0 && m.cpu >= 0 && wall > 0 {
		l.CPU = float64(cpu-m.cpu) / (float64(wall) * float64(l.GOMAXPROCS))
	}
	l.WakeP95 = m.wake.stop(m.start)
	return l
}

// wakeProbe measures how late a goroutine parked on a read runs once its
// data arrives: every wakeGap a file becomes readable at a known time, and
// a goroutine parked on it in the network poller, as a probe's body read
// is, notes how long after that time it ran. On Linux the kernel's timer
// makes a timer fd readable (wake_linux.go): one goroutine and one read a
// sample. Elsewhere a second goroutine writes a byte to a pipe on a Go
// ticker (wake_pipe.go), which costs a timer wake and a write more a sample.
type wakeProbe struct {
	halt  func() // ends the sampling goroutines
	wg    sync.WaitGroup
	wakes []wake // the reader's; read once it has stopped
	// released is the race's release, from which the gap grows (wakeGap):
	// a fleet race's probe starts seconds before it (--start-at), and its
	// race must have its first second's samples all the same.
	released atomic.Pointer[time.Time]
}

// release tells the probe the race has started.
func (p *wakeProbe) release(at time.Time) {
	if p != nil {
		p.released.Store(&at)
	}
}

// gapAt is the gap between samples from now on (wakeGap of the time since
// the release; wakeEvery before it).
func (p *wakeProbe) gapAt(now time.Time) time.Duration {
	var raced time.Duration
	if at := p.released.Load(); at != nil {
		raced = now.Sub(*at)
	}
	return wakeGap(raced)
}

// wake is one sample: when its file became readable, how long after that
// its reader ran, and the gap since the sample before, the share of the
// race it stands for.
type wake struct {
	due   time.Time
	gap   time.Duration
	delay time.Duration
}

// stop ends the probe and is the p95 of the delays of the samples due
// from on (0 for none).
func (p *wakeProbe) stop(from time.Time) time.Duration {
	if p == nil {
		return 0
	}
	p.halt()
	p.wg.Wait()
	return wakeP95(p.wakes, from)
}

// wakeP95 is the delay that the samples due from on reach or stay
// under for 95% of the time they stand for, each weighted by its gap (with
// equal gaps, the p95 of the delays: the ⌈0.95·n⌉-th).
func wakeP95(wakes []wake, from time.Time) time.Duration {
	var samples []wake
	var total time.Duration
	for _, w := range wakes {
		if !w.due.Before(from) {
			samples = append(samples, w)
			total += w.gap
		}
	}
	slices.SortFunc(samples, func(a, b wake) int { return cmp.Compare(a.delay, b.delay) })
	var below time.Duration
	for _, w := range samples {
		if below += w.gap; 20*below >= 19*total {
			return w.delay
		}
	}
	return 0
}
