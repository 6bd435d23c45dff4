package probes

import (
	"runtime"
	"testing"

	"go.uber.org/goleak"
)

// Races that overlap share one keeper; its P is one more than the work's,
// and GOMAXPROCS is what it was once the last race has ended, the keeper's
// goroutine gone.
func TestKeepAwakeLendsOneP(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	before := runtime.GOMAXPROCS(0)
	keeper := before + 1
	if runtime.GOOS != "linux" {
		keeper = before
	}
	procs, release := keepAwake()
	if procs != before || runtime.GOMAXPROCS(0) != keeper {
		t.Fatalf("first race: work has %d Ps, GOMAXPROCS %d; want %d and %d", procs, runtime.GOMAXPROCS(0), before, keeper)
	}
	procs2, release2 := keepAwake()
	if procs2 != before || runtime.GOMAXPROCS(0) != keeper {
		t.Fatalf("second race: work has %d Ps, GOMAXPROCS %d; want %d and %d", procs2, runtime.GOMAXPROCS(0), before, keeper)
	}
	release()
	release() // once or more
	if got := runtime.GOMAXPROCS(0); got != keeper {
		t.Fatalf("one race still running: GOMAXPROCS %d, want %d", got, keeper)
	}
	release2()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Fatalf("no race running: GOMAXPROCS %d, want %d", got, before)
	}
}
