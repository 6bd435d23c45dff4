package ui

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads GOGC as it is now.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// After a collection the dashboard's small heap may grow by the floor
// before the next; stopping sets GOGC back to the default.
func TestHeapFloorRaisesGOGCAndStopRestoresIt(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: the floor leaves the collector as the user set it")
	}
	stop := keepHeapFloor()
	raised := false
	for deadline := time.Now().Add(5 * time.Second); !raised && time.Now().Before(deadline); {
		runtime.GC() // the floor is set again after each collection, by a finalizer
		time.Sleep(10 * time.Millisecond)
		raised = gcPercent() > 100
	}
	stop()
	if !raised {
		t.Fatalf("GOGC stayed at %d after collections with a heap of a few MB", gcPercent())
	}
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC is %d after stop, want 100", p)
	}
	runtime.GC() // a callback after stop changes nothing
	time.Sleep(10 * time.Millisecond)
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC is %d after a collection past stop, want 100", p)
	}
}
