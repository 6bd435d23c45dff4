package probes

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// keeperNapMS is how long the keeper's P stays in one system call. Under
// 10 ms, the time after which sysmon takes a P from a system call even
// with other Ps idle: sysmon's taking one starts its 20 µs naps again.
const keeperNapMS = 5

// startKeeper raises GOMAXPROCS to procs+1 and starts the keeper: a
// goroutine that waits in poll(2) keeperNapMS at a time, its P held, until
// stop, which sets GOMAXPROCS back to procs. Between waits it yields, so
// that sysmon, which sees one goroutine on a P for 10 ms as one to preempt
// (and takes a P in a system call to do so), sees a new one each time.
// tpsrace sets GOMAXPROCS nowhere else. Set back, it stays at procs even
// where Go would follow a container's changing CPU limit: a process that
// lives for its races has no use for that.
func startKeeper(procs int) (stop func()) {
	var pipe [2]int // written once, to end the wait at once
	if err := unix.Pipe2(pipe[:], unix.O_CLOEXEC); err != nil {
		return func() {}
	}
	runtime.GOMAXPROCS(procs + 1)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		fds := []unix.PollFd{{Fd: int32(pipe[0]), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, keeperNapMS)
			if n != 0 || err != nil && err != unix.EINTR {
				return
			}
			runtime.Gosched()
		}
	}()
	return func() {
		_, _ = unix.Write(pipe[1], []byte{0})
		<-ended
		_ = unix.Close(pipe[0])
		_ = unix.Close(pipe[1])
		runtime.GOMAXPROCS(procs)
	}
}
