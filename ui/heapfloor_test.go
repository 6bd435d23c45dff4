package ui

import (
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
	// As a process started without either (the test's own may have them).
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
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

// A GOGC or GOMEMLIMIT the user set is theirs: the floor changes nothing.
func TestHeapFloorLeavesTheUsersGOGC(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}[env])
			defer debug.SetGCPercent(debug.SetGCPercent(100))
			stop := keepHeapFloor()
			defer stop()
			for range 3 {
				runtime.GC()
				time.Sleep(10 * time.Millisecond)
			}
			if p := gcPercent(); p != 100 {
				t.Fatalf("GOGC is %d with %s set, want it left at 100", p, env)
			}
		})
	}
}
