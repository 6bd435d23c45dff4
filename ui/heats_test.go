package ui

import (
	"strings"
	"testing"
)

// --heats 3: three races back to back, "heat N/3" in the header, and after
// each the verdict over the heats so far, the bench's own text.
func TestHeats(t *testing.T) {
	noLeaks(t)
	srv := startSim(t)
	cfg := simConfig(srv, "Hi.", 30, "sim:ttft=10ms,tps=2000,tokens=30", "sim:ttft=10ms,tps=500,tokens=30")
	tm := startProgram(t, Options{Config: cfg, Heats: 3})
	waitFor(t, tm, "heat 2/3")
	waitFor(t, tm, "heat 3/3")
	waitFor(t, tm, "heat 3/3: p1 is faster than p2 in 3/3 runs; output speed ratio")
	m := quit(t, tm)
	if len(m.s.history) != 3 {
		t.Fatalf("%d races, want the 3 heats", len(m.s.history))
	}
	if strings.Contains(m.View(), "heat 4") {
		t.Error("a fourth heat started")
	}
}
