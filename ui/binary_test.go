package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// The real binary in a real terminal: built from the repository root, run
// in tmux, read back with capture-pane.
func TestBinaryInTmux(t *testing.T) {
	testenv.Require(t, "tmux")
	bin := testenv.Binary(t)

	// In an empty directory (no providers.yaml) it races the built-in
	// simulated providers, at 120×40.
	t.Run("simulated", func(t *testing.T) {
		tr := testenv.StartTerminal(t, bin, testenv.TerminalOptions{Dir: t.TempDir(), Width: 120, Height: 40, Env: []string{"COLORTERM=truecolor"}})
		// The verdict and "finished in" come with the race's end, in one
		// frame; waiting for both reads neither from a half-drawn screen.
		s := tr.WaitScreen("the finished race", func(s string) bool {
			return strings.Contains(s, "faster than") && strings.Contains(s, "finished in")
		})
		// Settled: every provider has its finish place, and the verdict is up.
		for _, want := range []string{"SIMULATED", "finished in", "sim-wafer", "sim-laptop", "1st", "2nd", "3rd", "4th", "▶ sim-"} {
			if !strings.Contains(s, want) {
				t.Errorf("missing %q on the screen:\n%s", want, s)
			}
		}
		tr.Quit("faster than")
	})

	// The dashboard draws on the terminal itself (terminal.go): a resize
	// mid-race draws every row again at the new size, and quitting gives
	// the terminal back as it was.
	t.Run("resized mid-race", func(t *testing.T) {
		tr := testenv.StartTerminal(t, bin, testenv.TerminalOptions{Dir: t.TempDir(), Width: 120, Height: 40})
		tr.WaitScreen("the race", func(s string) bool { return strings.Contains(s, "racing") })
		if out, err := tr.Tmux("resize-window", "-t", "race", "-x", "80", "-y", "24"); err != nil {
			t.Fatalf("resize-window: %v\n%s", err, out)
		}
		// Until the dashboard reads the new size, the rows it writes are
		// the 120×40 screen's, and the terminal puts those past row 24
		// on row 24: a frame drawn just before the resize lands shows its
		// verdict there for a moment. So the test waits for the whole
		// 80×24 screen; one never drawn again fails here after 60 s.
		s := tr.WaitScreen("the finished race at 80×24, the header on the first row and the footer on the last", func(s string) bool {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return strings.Contains(s, "faster than") && len(lines) == 24 && strings.HasPrefix(lines[0], "tpsrace") &&
				strings.HasSuffix(strings.TrimRight(lines[23], " "), "q quit")
		})
		if n := strings.Count(s, "prompt Explain"); n != 1 {
			t.Errorf("the prompt's line is on screen %d times (rows of the 120×40 screen left?):\n%s", n, s)
		}
		tr.Quit("faster than")
		written := tr.Written()
		last := written[max(len(written)-200, 0):] // what was written on the way out
		for _, mode := range []string{"\x1b[?25h", "\x1b[?7h", "\x1b[?1002l", "\x1b[?1006l", "\x1b[?2004l", "\x1b[?1049l"} {
			if !strings.Contains(last, mode) {
				t.Errorf("on the way out, %q is not written: the terminal is not given back", mode)
			}
		}
	})

	t.Run("replayed verdict is bench's", func(t *testing.T) { replayedVerdictIsBenchs(t, bin) })

	// NO_COLOR drops every colour, whatever the theme.
	t.Run("NO_COLOR", func(t *testing.T) {
		for _, env := range [][]string{{"COLORTERM=truecolor"}, {"COLORTERM=truecolor", "NO_COLOR=1"}} {
			tr := testenv.StartTerminal(t, bin, testenv.TerminalOptions{Dir: t.TempDir(), Width: 120, Height: 40, Env: env, Args: []string{"--theme", "light"}})
			tr.WaitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
			coloured := tr.Screen("-e")
			if has := strings.Contains(coloured, "\x1b[38;2;"); has == (len(env) > 1) {
				t.Errorf("%v: colours on screen %v", env, has)
			}
			tr.Quit("faster than")
		}
	})

	providersFile(t, bin)
}

// providersFile: the binary bin with a providers.yaml of two providers on
// a simulator, one whose key is not set and one whose server is down, at
// 80×24; then in presenter mode.
func providersFile(t *testing.T, bin string) {
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
		tr := testenv.StartTerminal(t, bin, testenv.TerminalOptions{Dir: work, Width: 80, Height: 24})
		s := tr.WaitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
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
		tr.Quit("faster than")
	})

	t.Run("present releases after the countdown", func(t *testing.T) {
		before := promptTokensServed(t, srv)
		tr := testenv.StartTerminal(t, bin, testenv.TerminalOptions{Dir: work, Width: 80, Height: 24, Args: []string{"--present"}})
		s := tr.WaitScreen("the countdown", func(s string) bool { return strings.Contains(s, "every provider gets the prompt") })
		if n := promptTokensServed(t, srv); n != before {
			t.Errorf("during the countdown the simulator got %d prompt tokens", n-before)
		}
		if strings.Contains(s, "skipped") || strings.Contains(s, "groq") || strings.Contains(s, "127.0.0.1") {
			t.Errorf("presenter mode shows the room who was skipped (stderr said it before the start):\n%s", s)
		}
		s = tr.WaitScreen("the podium", func(s string) bool { return strings.Contains(s, "faster than") })
		if promptTokensServed(t, srv) == before {
			t.Error("the race sent no request")
		}
		for _, want := range []string{"1st", "2nd", "quick is", "q quit"} {
			if !strings.Contains(s, want) {
				t.Errorf("missing %q on the podium:\n%s", want, s)
			}
		}
		tr.Quit("faster than")
	})
}
