package ui

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// heapFloor is how far the heap may grow past what is live before the
// collector runs, at the least, while the dashboard shows.
//
// The dashboard's live heap is small (a few MB for 8 streams) and its
// garbage is not: every frame makes the screen anew, and Bubble Tea's
// renderer copies it three times more (bubbletea v1.3.10,
// standardRenderer.flush), some 5 MB a second at 240×60. With the
// default GOGC=100 the collector ran 25 to 30 times in a 10-second race,
// about a point of a core (GODEBUG=gctrace=1; docs/BENCHMARKS-HISTORY.md,
// "Lanes kept between frames"). With a floor of 32 MB it runs a few times. A race
// whose live heap is over 32 MB (hundreds of streams) collects as GOGC
// says: the floor costs at most 32 MB more memory, and only when the
// heap is small, and the page faults of growing into it, once a process.
// Where a fault costs 10 µs (a paravirtualised guest) those cost about
// what the collections saved; where it costs one, the floor wins
// (docs/BENCHMARKS-DASHBOARD.md, "Ninth round").
const heapFloor = 32 << 20

// keepHeapFloor raises GOGC after each collection so that the next one
// comes once the heap has grown by heapFloor past what is live, or as
// the default GOGC=100 says where that is later; stop sets it back. A
// GOGC or GOMEMLIMIT set by the user is theirs: keepHeapFloor then does
// nothing.
func keepHeapFloor() (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var mu sync.Mutex // stop and a late callback: GOGC is set back last
	stopped, percent := false, 100
	// The collector's goal is the live heap plus GOGC% of it and of the
	// stacks and globals it scanned (runtime/mgcpacer.go).
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	// The runtime has no hook after a collection: a finalizer runs once
	// its object was found unreachable, so an object that sets its own
	// finalizer again is called back after every collection.
	type sentinel struct{ _ [16]byte } // not a tiny allocation: those share a block, and its finalizer
	var tune func(*sentinel)
	tune = func(s *sentinel) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		metrics.Read(samples)
		var live, scanned uint64
		for k, s := range samples {
			if s.Value.Kind() != metrics.KindUint64 {
				continue // not in this runtime: the goal is computed without it
			}
			if k == 0 {
				live = s.Value.Uint64()
			}
			scanned += s.Value.Uint64()
		}
		// The runtime's least goal, 4 MB at GOGC=100, grows with GOGC too.
		p := min(heapFloor*100/max(scanned, 1), (live+heapFloor)*100/(4<<20))
		if p := max(100, int(p)); p != percent {
			percent = p
			debug.SetGCPercent(p)
		}
		runtime.SetFinalizer(s, tune)
	}
	runtime.SetFinalizer(&sentinel{}, tune)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		debug.SetGCPercent(100)
	}
}
