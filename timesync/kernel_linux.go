package timesync

import (
	"time"

	"golang.org/x/sys/unix"
)

type kernel struct{}

// Read asks adjtimex(2) without changing anything (modes 0, which needs no
// privilege, so it works in a container).
func (kernel) Read() State {
	var tx unix.Timex
	state, err := unix.Adjtimex(&tx)
	return fromTimex(state, tx.Status, tx.Esterror, err)
}

// fromTimex is the state adjtimex reported: unsynchronised when it returns
// TIME_ERROR or its status has STA_UNSYNC (no time daemon disciplines the
// clock); esterror is in microseconds.
func fromTimex(state int, status int32, esterror int64, err error) State {
	switch {
	case err != nil:
		return State{Why: "adjtimex: " + err.Error()}
	case status&unix.STA_UNSYNC != 0:
		return State{Why: "the kernel says STA_UNSYNC: no time daemon disciplines this clock"}
	case state == unix.TIME_ERROR:
		return State{Why: "adjtimex returns TIME_ERROR"}
	}
	return State{Synchronised: true, EstError: time.Duration(esterror) * time.Microsecond}
}
