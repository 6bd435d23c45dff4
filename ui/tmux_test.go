package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"tpsrace/testenv"
)

// terminal is the real tpsrace binary in a real terminal: built from the
// repository root, run in a 120×40 tmux pane on a tmux server of its own
// (so no other session is touched), read back with capture-pane, and
// everything it wrote recorded with pipe-pane.
type terminal struct {
	t        *testing.T
	socket   string
	exitFile string
	output   string // file holding every byte the program wrote
}

// tmuxSockets numbers the tests' tmux servers: a name used again could reach
// a server that an earlier test's cleanup is still shutting down.
var tmuxSockets atomic.Int64

func tmuxSocket() string {
	return "tpsrace-test-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(tmuxSockets.Add(1), 10)
}

// startTerminal builds tpsrace and runs it in dir with args. It skips the
// test with -short or without tmux.
func startTerminal(t *testing.T, dir string, args ...string) *terminal {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.Require(t, "tmux")
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "tpsrace")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	term := &terminal{t: t, socket: tmuxSocket(),
		exitFile: filepath.Join(tmp, "exit"), output: filepath.Join(tmp, "output")}
	t.Cleanup(func() { term.tmux("kill-server") })

	// The pane waits for the go file, so that pipe-pane records from the first byte.
	goFile := filepath.Join(tmp, "go")
	command := bin
	for _, a := range args {
		command += " " + a
	}
	script := "while [ ! -e " + goFile + " ]; do sleep 0.01; done; cd " + dir + " && unset CI && TERM=xterm-256color " + command +
		"; echo $? > " + term.exitFile + "; sleep 30"
	if out, err := term.tmux("new-session", "-d", "-s", "race", "-x", "120", "-y", "40", "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	if out, err := term.tmux("pipe-pane", "-o", "-t", "race", "cat >> "+term.output); err != nil {
		t.Fatalf("tmux pipe-pane: %v\n%s", err, out)
	}
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return term
}

func (term *terminal) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", term.socket}, args...)...).CombinedOutput()
	return string(out), err
}

// screen is what the terminal shows now.
func (term *terminal) screen() string {
	out, _ := term.tmux("capture-pane", "-p", "-t", "race")
	return out
}

// written is everything the program has written so far, escape codes and all.
func (term *terminal) written() string {
	b, _ := os.ReadFile(term.output)
	return string(b)
}

// waitScreen waits up to a minute for ok(screen) and returns that screen.
func (term *terminal) waitScreen(what string, ok func(string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := term.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("%s: not on screen after 60s:\n%s", what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// keys types keys into the terminal (tmux send-keys names).
func (term *terminal) keys(keys ...string) {
	term.t.Helper()
	if out, err := term.tmux(append([]string{"send-keys", "-t", "race"}, keys...)...); err != nil {
		term.t.Fatalf("send-keys: %v\n%s", err, out)
	}
}

// quit presses q and fails unless tpsrace exits with status 0 within 20 s,
// leaving the alternate screen.
func (term *terminal) quit(onScreen string) {
	term.t.Helper()
	term.keys("q")
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(term.exitFile)
		if err == nil {
			if code := strings.TrimSpace(string(b)); code != "0" {
				term.t.Fatalf("tpsrace exited with status %s; screen:\n%s", code, term.screen())
			}
			break
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("tpsrace did not exit after q:\n%s", term.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if s := term.screen(); strings.Contains(s, onScreen) {
		term.t.Errorf("the alternate screen was not left on exit:\n%s", s)
	}
}
