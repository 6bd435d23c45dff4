package probes

import (
	"runtime"
	"sync"
)

// Go's system monitor (sysmon, runtime/proc.go) naps 20 µs at a time while
// any P runs or sits in a system call, and sleeps deeply once a nap ends
// with every P idle. The next system call wakes it (a futex wake, on the
// caller's path) and starts it napping at 20 µs again. A client that its
// streams wake thousands of times a second, each wake a short burst of
// reads, goes through that cycle on most wakes: on a 2-core paravirtualised
// guest, where a kernel entry is dear, it was a third of bench's context
// switches and nearly half the dashboard's (docs/BENCHMARKS-DASHBOARD.md,
// "Tenth round"). While a race runs, keepAwake therefore keeps one P in a
// system call: sysmon never finds every P idle, never sleeps deeply, and
// once its naps find nothing to do they lengthen to 10 ms. That P is one
// more than GOMAXPROCS was, so the race's work keeps all it had.

// awake is the keeper's state, shared by the races that run at once (a
// dashboard's next race may start while the last one's streams drain).
var awake struct {
	sync.Mutex
	races int    // running
	procs int    // GOMAXPROCS before the first of them raised it
	stop  func() // ends the keeper and sets GOMAXPROCS back
}

// keepAwake keeps sysmon awake until release is called (once or more), and
// returns the Ps the race's work has: GOMAXPROCS as it was without the
// keeper's.
func keepAwake() (procs int, release func()) {
	awake.Lock()
	defer awake.Unlock()
	if awake.races == 0 {
		awake.procs = runtime.GOMAXPROCS(0)
		awake.stop = startKeeper(awake.procs)
	}
	awake.races++
	return awake.procs, sync.OnceFunc(func() {
		awake.Lock()
		defer awake.Unlock()
		if awake.races--; awake.races == 0 {
			awake.stop()
		}
	})
}
