// Package timesync reads how well this machine's clock is disciplined (by
// NTP, chrony or PTP, through the kernel): whether it is synchronised and
// the kernel's estimate of its error. A race released at a wall-clock
// instant (--start-at) on many hosts is only as simultaneous as their
// clocks agree, so every such race records this state, and a merge bounds
// the cross-host start skew with it.
package timesync

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// State is the clock's discipline at one moment.
type State struct {
	Synchronised bool
	// EstError is the kernel's estimated error of the clock (adjtimex's
	// esterror); meaningless, and 0, when the clock is not synchronised.
	EstError time.Duration
	// Why says why the state is unsynchronised ("" when synchronised):
	// the kernel says so, or it could not be read.
	Why string
}

// A Reader reads the clock's state (tests inject their own).
type Reader interface {
	Read() State
}

// Kernel reads the state from the kernel (adjtimex on Linux; elsewhere it
// is unknown, so unsynchronised).
var Kernel Reader = kernel{}

// String is the state for people: "synchronised ±0.4 ms", or
// "NOT synchronised (why)".
func (s State) String() string {
	if !s.Synchronised {
		return "NOT synchronised (" + s.Why + ")"
	}
	return "synchronised ±" + Millis(s.EstError)
}

// Millis writes d in milliseconds to 0.1 ms ("0.4 ms"), the unit clock
// errors and cross-host skews are read in.
func Millis(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// stateJSON is the JSON contract: {"synchronised": true, "est_error_ms": 0.4};
// est_error_ms is null when the clock is not synchronised, and
// "unsynchronised" then says why.
type stateJSON struct {
	Synchronised   bool     `json:"synchronised"`
	EstErrorMS     *float64 `json:"est_error_ms"`
	Unsynchronised string   `json:"unsynchronised,omitempty"`
}

func (s State) MarshalJSON() ([]byte, error) {
	j := stateJSON{Synchronised: s.Synchronised, Unsynchronised: s.Why}
	if s.Synchronised {
		ms := math.Round(float64(s.EstError)/float64(time.Microsecond)) / 1000
		j.EstErrorMS = &ms
	}
	return json.Marshal(j)
}

func (s *State) UnmarshalJSON(b []byte) error {
	var j stateJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = State{Synchronised: j.Synchronised, Why: j.Unsynchronised}
	if j.EstErrorMS != nil {
		s.EstError = time.Duration(*j.EstErrorMS * float64(time.Millisecond))
	}
	return nil
}
