package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TerminalOptions: where and how StartTerminal runs the binary.
type TerminalOptions struct {
	Dir           string   // the working folder
	Width, Height int      // the terminal's size in cells
	Env           []string // VAR=value, set for the binary
	Args          []string // the binary's arguments (no quoting: keep them plain)
}

// Terminal is the real tpsrace binary in a real terminal: a tmux pane on a
// tmux server of its own (so no other session is touched), read back with
// capture-pane, every byte the program writes recorded with pipe-pane.
//
//	term := testenv.StartTerminal(t, testenv.Binary(t), testenv.TerminalOptions{Dir: dir, Width: 120, Height: 40})
//	term.WaitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
//	term.Quit("faster than")
type Terminal struct {
	t        testing.TB
	socket   string
	exitFile string // the binary's exit status, once it exits
	pidFile  string // the binary's process id
	output   string // every byte the program wrote
}

// tmuxSockets numbers the tests' tmux servers: a name used again could reach a
// server that an earlier test's cleanup is still shutting down.
var tmuxSockets atomic.Int64

// StartTerminal runs bin in a terminal of its own, with CI and
// TPSRACE_TEST_UNSET_KEY unset (as in a user's terminal: termenv takes a
// set CI for "no terminal" and drops colour) and TERM=xterm-256color. The
// test ends through Require where tmux is missing.
func StartTerminal(t testing.TB, bin string, o TerminalOptions) *Terminal {
	t.Helper()
	Require(t, "tmux")
	tmp := t.TempDir()
	term := &Terminal{t: t, socket: "tpsrace-test-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(tmuxSockets.Add(1), 10),
		exitFile: filepath.Join(tmp, "exit"), pidFile: filepath.Join(tmp, "pid"), output: filepath.Join(tmp, "output")}
	t.Cleanup(func() { term.Tmux("kill-server") })
	// The pane waits for the go file, so that pipe-pane records from the
	// first byte; the inner shell notes its process id, then becomes the
	// binary.
	goFile := filepath.Join(tmp, "go")
	script := "while [ ! -e " + goFile + " ]; do sleep 0.01; done; cd " + o.Dir +
		" && unset TPSRACE_TEST_UNSET_KEY CI && env TERM=xterm-256color " + strings.Join(o.Env, " ") +
		" sh -c 'echo $$ > " + term.pidFile + "; exec \"$0\" \"$@\"' " + bin + " " + strings.Join(o.Args, " ") +
		"; echo $? > " + term.exitFile + ".new; mv " + term.exitFile + ".new " + term.exitFile + "; sleep 30" // whole when seen: a reader of the file as echo wrote it could read it empty
	if out, err := term.Tmux("new-session", "-d", "-s", "race", "-x", strconv.Itoa(o.Width), "-y", strconv.Itoa(o.Height), "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	if out, err := term.Tmux("pipe-pane", "-o", "-t", "race", "cat >> "+term.output); err != nil {
		t.Fatalf("tmux pipe-pane: %v\n%s", err, out)
	}
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return term
}

// Tmux runs a tmux command on the terminal's own server.
func (term *Terminal) Tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", term.socket}, args...)...).CombinedOutput()
	return string(out), err
}

// Screen is what the terminal shows now (-e: with its escape codes).
func (term *Terminal) Screen(flags ...string) string {
	out, _ := term.Tmux(append(append([]string{"capture-pane", "-p"}, flags...), "-t", "race")...)
	return out
}

// Written is everything the program has written so far, escape codes and all.
func (term *Terminal) Written() string {
	b, _ := os.ReadFile(term.output)
	return string(b)
}

// WaitScreen waits up to a minute for ok(screen) and returns that screen.
func (term *Terminal) WaitScreen(what string, ok func(string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := term.Screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("%s: not on screen after 60s:\n%s", what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Keys types keys into the terminal (tmux send-keys names: "q", "C-c").
func (term *Terminal) Keys(keys ...string) {
	term.t.Helper()
	if out, err := term.Tmux(append([]string{"send-keys", "-t", "race"}, keys...)...); err != nil {
		term.t.Fatalf("send-keys: %v\n%s", err, out)
	}
}

// ExitCode waits up to 20 s for the binary to exit and returns its status.
func (term *Terminal) ExitCode() string {
	term.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(term.exitFile); err == nil {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("tpsrace did not exit:\n%s", term.Screen())
		}
	}
}

// Quit presses q and fails unless tpsrace exits with status 0, leaving the
// alternate screen: onScreen, there before, is gone.
func (term *Terminal) Quit(onScreen string) {
	term.t.Helper()
	term.Keys("q")
	if code := term.ExitCode(); code != "0" {
		term.t.Fatalf("tpsrace exited with status %s; screen:\n%s", code, term.Screen())
	}
	if s := term.Screen(); strings.Contains(s, onScreen) {
		term.t.Errorf("the alternate screen was not left on exit:\n%s", s)
	}
}
