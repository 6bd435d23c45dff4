package probes

import (
	"os"
	"time"
)

// startPipeProbe starts a wake probe whose writer writes a byte to a pipe
// every gap, noting when, and whose reader notes how long after the write
// it ran; nil where no pipe opens (stop then reports 0: not measured).
// It is the probe where the kernel has no timer fds (wake_linux.go). It
// cannot see how late the kernel woke a process asleep: the writer is
// woken that way first, and counting from when its tick was due would
// count the Go timer's own lateness, up to a millisecond in an idle
// process (its poller sleeps in whole milliseconds), so it reads lower than
// the timer fd's probe: 0.02–0.07 ms against 0.1–0.2 ms idle on a 2-core VM.
func startPipeProbe() *wakeProbe {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	done := make(chan struct{})
	p := &wakeProbe{halt: func() { close(done) }}
	written := make(chan wake, 1)
	p.wg.Go(func() { p.readPipe(r, written) })
	p.wg.Go(func() { p.writePipe(w, written, done) })
	return p
}

func (p *wakeProbe) writePipe(w *os.File, written chan<- wake, done <-chan struct{}) {
	defer w.Close()
	gap := wakeEvery
	tick := time.NewTicker(gap)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		s := wake{due: time.Now(), gap: gap}
		if next := p.gapAt(s.due); next != gap {
			gap = next
			tick.Reset(gap)
		}
		select {
		case written <- s: // the reader has taken the last one
		default:
			continue
		}
		if _, err := w.Write([]byte{0}); err != nil {
			return
		}
	}
}

func (p *wakeProbe) readPipe(r *os.File, written <-chan wake) {
	defer r.Close()
	buf := make([]byte, 1)
	for {
		if _, err := r.Read(buf); err != nil {
			return
		}
		s := <-written
		s.delay = time.Since(s.due)
		p.wakes = append(p.wakes, s)
	}
}
