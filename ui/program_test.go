package ui

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"go.uber.org/goleak"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/tokens"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/live"
)

// These tests drive the real program (teatest) against the real simulator
// over loopback. Bounds on wall-clock time are generous: they catch a hang,
// not a slow machine.

// noLeaks checks, after everything else the test registered has been
// cleaned up (the simulator closed), that no goroutine is left.
func noLeaks(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		goleak.VerifyNone(t,
			goleak.IgnoreCurrent(),
			// teatest waits on SIGINT for its whole process.
			goleak.IgnoreTopFunction("github.com/charmbracelet/x/exp/teatest.NewTestModel.func2"),
			goleak.IgnoreTopFunction("os/signal.signal_recv"),
		)
	})
}

func simConfig(srv *sim.Server, prompt string, maxTokens int, models ...string) *config.Config {
	cfg := &config.Config{Prompt: prompt, MaxTokens: maxTokens}
	for i, model := range models {
		cfg.Providers = append(cfg.Providers, config.Provider{
			Name: "p" + string(rune('1'+i)), Kind: config.KindOpenAI, BaseURL: srv.URL(), Model: model, Timeout: config.DefaultTimeouts,
		})
	}
	return cfg
}

func startProgram(t *testing.T, opts Options) *teatest.TestModel {
	t.Helper()
	return teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(120, 40))
}

// waitFor waits until the screen output since the last wait contains one
// of anyOf.
func waitFor(t *testing.T, tm *teatest.TestModel, anyOf ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return slices.ContainsFunc(anyOf, func(s string) bool { return bytes.Contains(b, []byte(s)) })
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

// quit presses q and returns the final model once every stream has ended.
func quit(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	tm.Type("q")
	m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	m.shutdown()
	return m
}

func lastRace(t *testing.T, m Model) [][]probes.Result {
	t.Helper()
	if len(m.s.history) == 0 {
		t.Fatal("no race finished")
	}
	return m.s.history[len(m.s.history)-1]
}

func TestRaceRunsToTheEndAndRacesAgain(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 400,
		"sim:ttft=30ms,tps=100,tokens=60",   // slowest
		"sim:ttft=30ms,tps=2000,tokens=200", // fastest
		"sim:ttft=30ms,tps=500,tokens=150",
	)
	tm := startProgram(t, Options{Config: cfg})
	// Each race's end, when it joins the history (the verdict comes with it).
	waitFor(t, tm, "finished in")
	tm.Type("r")
	waitFor(t, tm, "racing")
	waitFor(t, tm, "finished in")
	m := quit(t, tm)

	if len(m.s.history) != 2 {
		t.Fatalf("%d races kept, want 2", len(m.s.history))
	}
	if !strings.Contains(m.View(), "p2 is") {
		t.Errorf("no verdict for p2 on the screen:\n%s", m.View())
	}
	figs := m.figures()
	if got, want := leaderboard.Order(figs), []int{1, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("leaderboard order %v, want %v (by simulated speed)", got, want)
	}
	for i, res := range lastRace(t, m) {
		if !res[0].OK() {
			t.Errorf("provider %d: %v", i, res[0].Err)
		}
	}
}

func TestEditedPromptReachesTheServer(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 100, "sim:ttft=20ms,tps=1000,tokens=50")
	tm := startProgram(t, Options{Config: cfg})
	waitFor(t, tm, "streamed at")

	const prompt = "Describe the judges' table in twenty quiet words."
	tm.Type("e")
	waitFor(t, tm, "Edit the prompt")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU}) // clear the old prompt
	tm.Type(prompt)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "twenty quiet words")
	waitFor(t, tm, "streamed at")
	m := quit(t, tm)

	res := lastRace(t, m)[0][0]
	if res.Usage == nil || res.Usage.PromptTokens != tokens.Count(prompt) {
		t.Fatalf("usage %+v, want prompt_tokens %d (the edited prompt)", res.Usage, tokens.Count(prompt))
	}
	if m.s.prompt != prompt {
		t.Errorf("prompt on screen %q", m.s.prompt)
	}
}

func TestQuitMidRaceCancelsEveryStream(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Go on.", 4000, "sim:ttft=10ms,tps=20,tokens=4000", "sim:ttft=10ms,tps=20,tokens=4000")
	tm := startProgram(t, Options{Config: cfg, Concurrency: 4})
	waitFor(t, tm, "streaming")
	start := time.Now()
	m := quit(t, tm)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("quitting took %v", took)
	}
	if m.s.phase.running() {
		t.Error("the race still runs after quit")
	}
}

// The dashboard must not slow what it measures: at 3000 tok/s, one token
// per event, the output speed measured with the dashboard running equals
// the headless measurement of the same schedule within 1%.
func TestSaveWritesTheFinishedRaces(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 50, "sim:ttft=10ms,tps=2000,tokens=20")
	dir := t.TempDir()
	var saved [][][]probes.Result
	save := func(w io.Writer, c *config.Config, conc int, races [][][]probes.Result, interrupted bool) error {
		saved = races
		_, err := io.WriteString(w, `{"prompt":"`+c.Prompt+`"}`)
		return err
	}
	tm := startProgram(t, Options{Config: cfg, Save: save, SaveDir: dir})
	waitFor(t, tm, "streamed at")
	tm.Type("s")
	waitFor(t, tm, "saved "+dir)
	quit(t, tm)
	if len(saved) != 1 || len(saved[0]) != 1 || !saved[0][0][0].OK() {
		t.Fatalf("saved %+v", saved)
	}
}

func (m *Model) figures() []live.Snapshot { return m.s.figures(m.s.now()) }

// With Warm the connections are open before the release: the zoomed lane
// says its stream reused one, and the header shows the start skew.
func TestWarmRaceReusesTheConnection(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 50, "sim:ttft=10ms,tps=2000,tokens=20", "sim:ttft=10ms,tps=1000,tokens=20")
	tm := startProgram(t, Options{Config: cfg, Warm: true})
	waitForAll(t, tm, "finished in", "start skew") // its end, not "faster than": a loaded box may call the two level
	tm.Type("1")
	waitFor(t, tm, "reused connection")
	m := quit(t, tm)
	for _, streams := range lastRace(t, m) {
		if r := streams[0]; r.Phases.Connected != 0 || !r.OK() {
			t.Errorf("%s: connected at %v (want reused), err %v", r.Provider, r.Phases.Connected, r.Err)
		}
	}
}
