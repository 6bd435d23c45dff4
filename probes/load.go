package probes

import (
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"
)

// ClientLoad is how busy tpsrace itself was during a race, so that a race
// can say when it measured its own client rather than the providers
// (metrics' client_saturated flag).
type ClientLoad struct {
	// CPU: the process's CPU time over the race ÷ (GOMAXPROCS × the race's
	// wall time): 1 means every core Go may use was busy. NaN where the
	// platform does not report process CPU time.
	CPU        float64
	GOMAXPROCS int
	// WakeP95: the 95th percentile of how late a goroutine woken by data
	// arriving ran, over the race: a probe's read is woken the same way,
	// so one event in twenty is stamped at least this late. Measured by a
	// wake probe (wakeEvery), not the runtime's scheduling histogram, which
	// pools every goroutine and in a short race holds too few waits for a
	// tail. The 95th, not the 99th: a 1-second race holds 200 wakes, whose
	// p99 is its second-worst, one stall of the box in a second. 0: not
	// measured (a recording from before it).
	WakeP95 time.Duration
}

// wakeEvery is how often the wake probe writes a byte to its pipe during a
// race: 200 samples a second, two syscalls each, a cost far under the
// client's own (measured in docs/METRICS.md, "The referee").
const wakeEvery = 5 * time.Millisecond

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
func (m *loadMeter) begin(release time.Time) { m.start, m.cpu = release, processCPU() }

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
// data arrives: every wakeEvery a writer notes the time and writes a byte
// to a pipe; the reader, parked in the network poller as a probe's body
// read is, notes how long after the write it returned.
type wakeProbe struct {
	r, w  *os.File
	done  chan struct{}
	wg    sync.WaitGroup
	wakes []wake // the reader's; read once both have stopped
}

// wake is one byte's: when it was written, and how long after that its
// reader ran.
type wake struct {
	sent  time.Time
	delay time.Duration
}

// startWakeProbe starts the writer and the reader; nil where no pipe opens
// (stop then reports 0: not measured).
func startWakeProbe() *wakeProbe {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	p := &wakeProbe{r: r, w: w, done: make(chan struct{})}
	sent := make(chan time.Time, 1)
	p.wg.Go(func() { p.read(sent) })
	p.wg.Go(func() { p.write(sent) })
	return p
}

func (p *wakeProbe) write(sent chan<- time.Time) {
	tick := time.NewTicker(wakeEvery)
	defer tick.Stop()
	defer p.w.Close()
	for {
		select {
		case <-p.done:
			return
		case <-tick.C:
		}
		select {
		case sent <- time.Now(): // the reader has taken the last one
		default:
			continue
		}
		if _, err := p.w.Write([]byte{0}); err != nil {
			return
		}
	}
}

func (p *wakeProbe) read(sent <-chan time.Time) {
	defer p.r.Close()
	buf := make([]byte, 1)
	for {
		if _, err := p.r.Read(buf); err != nil {
			return
		}
		at := <-sent
		p.wakes = append(p.wakes, wake{at, time.Since(at)})
	}
}

// stop ends the probe and is the p95 of the delays of the bytes written
// from on (0 for none).
func (p *wakeProbe) stop(from time.Time) time.Duration {
	if p == nil {
		return 0
	}
	close(p.done)
	p.wg.Wait()
	var delays []time.Duration
	for _, w := range p.wakes {
		if !w.sent.Before(from) {
			delays = append(delays, w.delay)
		}
	}
	if len(delays) == 0 {
		return 0
	}
	slices.Sort(delays)
	return delays[int(math.Ceil(0.95*float64(len(delays))))-1]
}
