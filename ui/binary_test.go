package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The real binary in a real terminal, in an empty directory: no
// providers.yaml, so it races the built-in simulated providers.
func TestBinaryInTmux(t *testing.T) {
	work := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, work)
	s := term.waitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
	// Settled: every provider has its finish place, and the verdict is up.
	for _, want := range []string{"SIMULATED", "finished in", "sim-wafer", "sim-laptop", "1st", "2nd", "3rd", "4th", "▶ sim-"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q on the screen:\n%s", want, s)
		}
	}
	term.quit("faster than")
}
