package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// The real binary in a real terminal: built from the repository root, run
// in tmux, read back with capture-pane.
func TestBinaryInTmux(t *testing.T) {
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

	// In an empty directory (no providers.yaml) it races the built-in
	// simulated providers, at 120×40.
	t.Run("simulated", func(t *testing.T) {
		tr := startTmux(t, bin, t.TempDir(), 120, 40, []string{"COLORTERM=truecolor"})
		s := tr.waitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
		// Settled: every provider has its finish place, and the verdict is up.
		for _, want := range []string{"SIMULATED", "finished in", "sim-wafer", "sim-laptop", "1st", "2nd", "3rd", "4th", "▶ sim-"} {
			if !strings.Contains(s, want) {
				t.Errorf("missing %q on the screen:\n%s", want, s)
			}
		}
		tr.quit()
	})

	t.Run("replayed verdict is bench's", func(t *testing.T) { replayedVerdictIsBenchs(t, bin) })

	// NO_COLOR drops every colour, whatever the theme.
	t.Run("NO_COLOR", func(t *testing.T) {
		for _, env := range [][]string{{"COLORTERM=truecolor"}, {"COLORTERM=truecolor", "NO_COLOR=1"}} {
			tr := startTmux(t, bin, t.TempDir(), 120, 40, env, "--theme", "light")
			tr.waitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
			coloured, _ := tr.tmux("capture-pane", "-p", "-e", "-t", "race")
			if has := strings.Contains(coloured, "\x1b[38;2;"); has == (len(env) > 1) {
				t.Errorf("%v: colours on screen %v", env, has)
			}
			tr.quit()
		}
	})

	// A providers.yaml with two providers on a simulator, one whose key is
	// not set and one whose server is down, at 80×24.
	srv := simtest.Start(t, sim.Options{})
	yaml := "providers:\n" +
		"  - {name: quick, base_url: " + srv.URL() + ", model: \"sim:ttft=20ms,tps=800,tokens=200\"}\n" +
		"  - {name: steady, base_url: " + srv.URL() + ", model: \"sim:ttft=20ms,tps=300,tokens=200\"}\n" +
		"  - {name: groq, base_url: https://api.groq.com/openai/v1, api_key: \"${TPSRACE_TEST_UNSET_KEY}\", model: llama}\n" +
		"  - {name: my-vllm, base_url: \"http://127.0.0.1:9/v1\", model: x}\n"
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "providers.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("skipped and footer at 80x24", func(t *testing.T) {
		tr := startTmux(t, bin, work, 80, 24, nil)
		s := tr.waitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		if want := "2 skipped · ? lists them"; len(lines) < 3 || !strings.Contains(lines[0], want) {
			t.Errorf("the header lacks %q:\n%s", want, s)
		}
		if last := strings.TrimRight(lines[len(lines)-1], " "); !strings.HasSuffix(last, "? help, figures • q quit") {
			t.Errorf("the footer %q lacks ? and q", last)
		}
		// The models' IDs ("sim:ttft=20ms,tps=800,tokens=200") are longer
		// than a 40-column lane's title: they are cut, the badge is not.
		for _, title := range []string{"1 quick", "2 steady"} {
			for _, l := range lines {
				if strings.Contains(l, title) && !strings.Contains(l, "✓ 1st") && !strings.Contains(l, "✓ 2nd") {
					t.Errorf("the title %q lost its badge", l)
				}
			}
		}
		tr.quit()
	})

	t.Run("present releases after the countdown", func(t *testing.T) {
		before := promptTokensServed(t, srv)
		tr := startTmux(t, bin, work, 80, 24, nil, "--present")
		s := tr.waitScreen("the countdown", func(s string) bool { return strings.Contains(s, "every provider gets the prompt") })
		if n := promptTokensServed(t, srv); n != before {
			t.Errorf("during the countdown the simulator got %d prompt tokens", n-before)
		}
		if strings.Contains(s, "skipped") || strings.Contains(s, "groq") || strings.Contains(s, "127.0.0.1") {
			t.Errorf("presenter mode shows the room who was skipped (stderr said it before the start):\n%s", s)
		}
		s = tr.waitScreen("the podium", func(s string) bool { return strings.Contains(s, "faster than") })
		if promptTokensServed(t, srv) == before {
			t.Error("the race sent no request")
		}
		for _, want := range []string{"1st", "2nd", "quick is", "q quit"} {
			if !strings.Contains(s, want) {
				t.Errorf("missing %q on the podium:\n%s", want, s)
			}
		}
		tr.quit()
	})
}

// tmuxRun is the binary running in a tmux server of its own, so no other
// tmux session is touched.
type tmuxRun struct {
	t        *testing.T
	socket   string
	exitFile string
	pidFile  string // the binary's process id
}

// startTmux runs bin with args in dir, in a w × h terminal, with
// TPSRACE_TEST_UNSET_KEY unset and env (VAR=value) set.
func startTmux(t *testing.T, bin, dir string, w, h int, env []string, args ...string) *tmuxRun {
	t.Helper()
	tmp := t.TempDir()
	tr := &tmuxRun{t: t, socket: tmuxSocket(), exitFile: filepath.Join(tmp, "exit"), pidFile: filepath.Join(tmp, "pid")}
	t.Cleanup(func() { tr.tmux("kill-server") })
	// CI is unset as in a user's terminal: termenv takes a set CI for "no terminal" and drops colour.
	// The inner shell notes its process id, then becomes the binary.
	script := "cd " + dir + " && unset TPSRACE_TEST_UNSET_KEY CI && env TERM=xterm-256color " + strings.Join(env, " ") +
		" sh -c 'echo $$ > " + tr.pidFile + "; exec \"$0\" \"$@\"' " + bin + " " + strings.Join(args, " ") +
		"; echo $? > " + tr.exitFile + "; sleep 30"
	if out, err := tr.tmux("new-session", "-d", "-s", "race", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return tr
}

func (tr *tmuxRun) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", tr.socket}, args...)...).CombinedOutput()
	return string(out), err
}

func (tr *tmuxRun) screen() string {
	out, _ := tr.tmux("capture-pane", "-p", "-t", "race")
	return out
}

// waitScreen polls the screen until ok, for up to a minute.
func (tr *tmuxRun) waitScreen(what string, ok func(string) bool) string {
	tr.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := tr.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tr.t.Fatalf("%s: not on screen after 60s:\n%s", what, s)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// quit presses q and checks the binary exits 0 and leaves the alternate screen.
func (tr *tmuxRun) quit() {
	tr.t.Helper()
	if out, err := tr.tmux("send-keys", "-t", "race", "q"); err != nil {
		tr.t.Fatalf("send-keys: %v\n%s", err, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(tr.exitFile)
		if err == nil {
			if code := strings.TrimSpace(string(b)); code != "0" {
				tr.t.Fatalf("tpsrace exited with status %s; screen:\n%s", code, tr.screen())
			}
			break
		}
		if time.Now().After(deadline) {
			tr.t.Fatalf("tpsrace did not exit after q:\n%s", tr.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if s := tr.screen(); strings.Contains(s, "faster than") {
		tr.t.Errorf("the alternate screen was not left on exit:\n%s", s)
	}
}
