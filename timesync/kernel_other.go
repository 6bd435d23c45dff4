//go:build !linux

package timesync

import "runtime"

type kernel struct{}

// Read says the state is unknown: only Linux's adjtimex is read.
func (kernel) Read() State {
	return State{Why: "the clock's discipline is not read on " + runtime.GOOS}
}
