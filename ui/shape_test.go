package ui

import (
	"reflect"
	"testing"
)

// The root model stays a small common struct, a state and its children
// (issue 18): at most 20 fields, counted here so a new one is a choice.
func TestModelHasAtMost20Fields(t *testing.T) {
	if n := reflect.TypeFor[Model]().NumField(); n > 20 {
		t.Errorf("ui.Model has %d fields, at most 20: put shared context in common, a mode's state in its child", n)
	}
}

// New writes nothing into its options: a replay's clock is the one given,
// or the replayer's own.
func TestNewWritesNothingIntoOptions(t *testing.T) {
	cfg, _, results := recordedRace()
	rp := &Replay{Results: results}
	opts := Options{Config: cfg, Replay: rp}
	before := *rp
	New(opts)
	if !reflect.DeepEqual(*rp, before) {
		t.Error("New changed the Replay it was given")
	}
	clock := NewReplayClock(nil)
	rp.Clock = clock
	if m := New(opts); m.replay.clock != clock {
		t.Error("New did not run the replay on the clock it was given")
	}
}
