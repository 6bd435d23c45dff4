package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The real binary in a real terminal: built from the repository root, run
// in tmux at 120×40 in an empty directory (no providers.yaml, so it races
// the built-in simulated providers), read back with capture-pane.
func TestBinaryInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux)")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "tpsrace")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := filepath.Join(tmp, "empty")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}

	// A server of our own, so no other tmux session is touched.
	socket := "tpsrace-test-" + strconv.Itoa(os.Getpid())
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { tmux("kill-server") })
	exitFile := filepath.Join(tmp, "exit")
	script := "cd " + work + " && TERM=xterm-256color " + bin + "; echo $? > " + exitFile + "; sleep 30"
	if out, err := tmux("new-session", "-d", "-s", "race", "-x", "120", "-y", "40", "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}

	screen := func() string {
		out, _ := tmux("capture-pane", "-p", "-t", "race")
		return out
	}
	waitScreen := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			s := screen()
			if ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not on screen after 60s:\n%s", what, s)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}

	s := waitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
	// Settled: every provider has its finish place, and the verdict is up.
	for _, want := range []string{"SIMULATED", "finished in", "sim-wafer", "sim-laptop", "1st", "2nd", "3rd", "4th", "▶ sim-"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q on the screen:\n%s", want, s)
		}
	}

	if out, err := tmux("send-keys", "-t", "race", "q"); err != nil {
		t.Fatalf("send-keys: %v\n%s", err, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(exitFile)
		if err == nil {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Fatalf("tpsrace exited with status %s; screen:\n%s", code, screen())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tpsrace did not exit after q:\n%s", screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if s := screen(); strings.Contains(s, "faster than") {
		t.Errorf("the alternate screen was not left on exit:\n%s", s)
	}
}
