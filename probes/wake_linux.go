package probes

import (
	"encoding/binary"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// startWakeProbe starts a wake probe on a timer fd: the kernel makes it
// readable every gap, so a sample costs one goroutine's wake and one read,
// where the pipe's probe adds a writer woken by a Go ticker and its write
// (0.05–0.06× of the floor in scripts/costs' races, docs/BENCHMARKS.md).
// Its times are the kernel's, so it sees what a stream's read pays when
// its bytes arrive while the process sleeps, the kernel's wake of it,
// which the pipe's probe cannot; and a sample the reader ran too late to
// see alone is kept: the read counts every expiry since the last. The
// pipe's probe where no timer fd opens.
func startWakeProbe() *wakeProbe {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return startPipeProbe()
	}
	timer := os.NewFile(uintptr(fd), "wake probe") // non-blocking: read through the network poller
	armed, err := armTimer(fd, wakeEvery)
	if err != nil {
		timer.Close()
		return startPipeProbe()
	}
	p := &wakeProbe{halt: func() { timer.Close() }}
	p.wg.Go(func() { p.readTimer(timer, fd, armed) }) // fd kept: timer.Fd() would make the file blocking
	return p
}

// armTimer makes the timer fire every gap from now, and is now.
func armTimer(fd int, gap time.Duration) (time.Time, error) {
	every := unix.NsecToTimespec(int64(gap))
	armed := time.Now()
	return armed, unix.TimerfdSettime(fd, 0, &unix.ItimerSpec{Interval: every, Value: every}, nil)
}

// readTimer samples until the timer is closed: the k-th expiry since the
// timer was armed was due k gaps after.
func (p *wakeProbe) readTimer(timer *os.File, fd int, armed time.Time) {
	gap, fired := wakeEvery, 0
	var expiries [8]byte
	for {
		if _, err := timer.Read(expiries[:]); err != nil {
			return
		}
		ran := time.Now()
		for range binary.NativeEndian.Uint64(expiries[:]) {
			fired++
			due := armed.Add(time.Duration(fired) * gap)
			p.wakes = append(p.wakes, wake{due: due, gap: gap, delay: ran.Sub(due)})
		}
		if next := p.gapAt(ran); next != gap {
			var err error
			if armed, err = armTimer(fd, next); err != nil {
				return
			}
			gap, fired = next, 0
		}
	}
}
