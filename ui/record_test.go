package ui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/report"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// The dashboard's `s` saves the JSON results and a recording of the same
// races; --record (RecordPath) keeps a recording of them after every race.
// Replayed, both give the saved JSON byte for byte.
func TestSaveAlsoRecords(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 40, "sim:ttft=10ms,tps=1500,tokens=30", "sim:ttft=10ms,tps=900,tokens=20,reasoning=10", "sim:fault=500")
	dir := t.TempDir()
	save := func(w io.Writer, c *config.Config, conc int, races [][][]probes.Result, interrupted bool) error {
		return report.Of(benchdoc.Build(benchdoc.Input{Config: c, Concurrency: conc, Races: races, Interrupted: interrupted})).WriteJSON(w)
	}
	record := func(path string, c *config.Config, conc int, races [][][]probes.Result, interrupted bool) error {
		return recording.WriteFile(path, recording.NewHeader(c, conc, time.Time{}), c, races, interrupted)
	}
	live := filepath.Join(dir, "live.tpsr")
	tm := startProgram(t, Options{Config: cfg, SaveDir: dir, Save: save, Record: record, RecordPath: live})
	waitFor(t, tm, "finished in")
	tm.Type("r")
	// The first race's last frames may still be unread, its end in them:
	// the second race's end is the one after its start, when it joins what
	// `s` saves.
	waitFor(t, tm, " · starting · ", " · racing ")
	waitFor(t, tm, "finished in")
	tm.Type("s")
	waitFor(t, tm, "saved ")
	quit(t, tm)

	saved, _ := filepath.Glob(filepath.Join(dir, "tpsrace-*.json"))
	if len(saved) != 1 {
		t.Fatalf("saved %v, want one JSON file", saved)
	}
	want, _ := os.ReadFile(saved[0])
	for _, path := range []string{strings.TrimSuffix(saved[0], ".json") + ".tpsr", live} {
		rec, err := recording.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Races) != 2 {
			t.Errorf("%s: %d races, want 2", path, len(rec.Races))
		}
		var got bytes.Buffer
		report.Of(benchdoc.Build(rec.Report())).WriteJSON(&got)
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s replayed differs from the saved JSON:\nsaved:\n%s\nreplayed:\n%s", path, want, got.Bytes())
		}
	}
}

// A recorded race replayed in the dashboard, with the simulator gone, ends
// with exactly the live race's figures (every figure the lanes and the
// leaderboard show) and the live race's results; the header says REPLAY.
func TestReplayInTheDashboardEqualsLive(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 40, "sim:ttft=10ms,tps=1500,tokens=30", "sim:ttft=20ms,tps=600,tokens=20,reasoning=10", "sim:fault=500")
	tm := startProgram(t, Options{Config: cfg, Concurrency: 2})
	waitFor(t, tm, "faster than")
	live := quit(t, tm)
	srv.Close()

	path := filepath.Join(t.TempDir(), "race.tpsr")
	if err := recording.WriteFile(path, recording.NewHeader(cfg, 2, time.Time{}), cfg, live.s.history, false); err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	recorded := rec.Report()
	recordedAt := rec.Header.RecordedAt
	tm = startProgram(t, Options{Config: recorded.Config, Concurrency: rec.Header.Concurrency,
		Replay: &Replay{Results: rec.Races[0].Results, RecordedAt: recordedAt}})
	waitFor(t, tm, "REPLAY")
	waitFor(t, tm, "faster than")
	replayed := quit(t, tm)

	if got, want := replayed.figures(), live.figures(); !reflect.DeepEqual(got, want) {
		t.Errorf("replayed figures differ from the live ones:\nlive     %+v\nreplayed %+v", want, got)
	}
	if !reflect.DeepEqual(lastRace(t, replayed), rec.Races[0].Results) {
		t.Error("the replay's results are not the recorded ones")
	}
	if !strings.Contains(replayed.View(), "recorded "+recordedAt.UTC().Format("2006-01-02 15:04 UTC")+" · 1×") {
		t.Errorf("the header lacks the recording date and speed:\n%s", replayed.View())
	}
}

// The replay's keys: space pauses its clock, +/- step its speed (shown in
// the header), ← replays up to an earlier moment, r from the start; the
// race still ends with the recorded results.
func TestReplayKeys(t *testing.T) {
	noLeaks(t)
	rec, err := recording.Open("../testdata/race.tpsr")
	if err != nil {
		t.Fatal(err)
	}
	wall := &steppedWall{at: time.Now()}
	clock := NewReplayClock(wall.now)
	replay := &Replay{Results: rec.Races[0].Results, RecordedAt: rec.Header.RecordedAt, Clock: clock}
	tm := startProgram(t, Options{Config: rec.Report().Config, Replay: replay})
	waitFor(t, tm, "REPLAY")
	tm.Type(" ")
	waitFor(t, tm, "⏸")
	paused := clock.Now()
	wall.step(time.Minute)
	if now := clock.Now(); now != paused {
		t.Errorf("paused clock moved from %v to %v while a minute passed", paused, now)
	}
	tm.Type("-")
	waitFor(t, tm, "0.5×")
	tm.Type("+++")
	waitFor(t, tm, "4×")
	if speed, _ := clock.state(); speed != 4 {
		t.Errorf("speed %v after -, then + three times from 1×: want 4", speed)
	}
	// Still paused: only the keys move the clock.
	tm.Send(tea.KeyMsg{Type: tea.KeyRight})
	ahead := eventually(t, clock, func(d time.Duration) bool { return d == paused+replay.step() }, "→ moves a tenth of the race ahead")
	tm.Send(tea.KeyMsg{Type: tea.KeyLeft})
	eventually(t, clock, func(d time.Duration) bool { return d == ahead-replay.step() }, "← moves a tenth back")
	tm.Type("r")
	eventually(t, clock, func(d time.Duration) bool { return d == 0 }, "r goes back to the start")
	tm.Type(" ")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, paused := clock.state(); !paused {
			break
		} else if time.Now().After(deadline) {
			t.Fatal("space did not resume the replay")
		}
	}
	wall.step(time.Minute) // at 4×, four minutes of race: past its end
	if now := clock.Now(); now != 4*time.Minute {
		t.Errorf("a minute at 4× from the start moved the clock to %v", now)
	}
	waitFor(t, tm, "faster than")
	m := quit(t, tm)
	if !reflect.DeepEqual(lastRace(t, m), rec.Races[0].Results) {
		t.Error("the replay did not end with the recorded results")
	}
}

// steppedWall is a time of day that moves only when a test steps it.
type steppedWall struct {
	mu sync.Mutex
	at time.Time
}

func (w *steppedWall) now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.at
}

func (w *steppedWall) step(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.at = w.at.Add(d)
}

// eventually waits until the clock satisfies ok (the program handles keys
// in its own goroutine) and returns its time.
func eventually(t *testing.T, c Clock, ok func(time.Duration) bool, what string) time.Duration {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if d := c.Now(); ok(d) {
			return d
		}
	}
	t.Fatalf("%s: clock at %v", what, c.Now())
	return 0
}

// The help page of a replay says when and by which tpsrace build the race
// was recorded (recording.Header.Made, tool_version).
func TestReplayHelpSaysWhoRecordedIt(t *testing.T) {
	rec, err := recording.Open("../testdata/race.tpsr")
	if err != nil {
		t.Fatal(err)
	}
	made := "recorded 2026-12-03 07:51 UTC by tpsrace v9.9.9"
	m := New(Options{Config: rec.Report().Config, Replay: &Replay{Results: rec.Races[0].Results, RecordedAt: rec.Header.RecordedAt, Made: made}})
	m = update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = update(m, press("?"))
	if !strings.Contains(m.View(), "This replay "+made) {
		t.Errorf("help page lacks %q:\n%s", made, m.View())
	}
}

// The race a stop interrupted replays as stopped, never as finished: the
// header says INTERRUPTED and when it stopped.
func TestReplayOfAnInterruptedRace(t *testing.T) {
	noLeaks(t)
	rec, err := recording.Open("../testdata/race.tpsr")
	if err != nil {
		t.Fatal(err)
	}
	replay := &Replay{Results: rec.Races[0].Results, RecordedAt: rec.Header.RecordedAt, Interrupted: true}
	tm := startProgram(t, Options{Config: rec.Report().Config, Replay: replay})
	waitForAll(t, tm, "INTERRUPTED", "stopped at ")
	if screen := quit(t, tm).View(); strings.Contains(screen, "finished in") {
		t.Errorf("the interrupted race says it finished:\n%s", screen)
	}
}

// The race a broken recording cut replays as cut, never as finished: the
// header says TRUNCATED and what was lost for as long as it runs, the lanes
// whose streams were lost say so (not waiting, not queued), and `s` has
// nothing of it to save.
func TestReplayOfACutRace(t *testing.T) {
	noLeaks(t)
	data, err := os.ReadFile("../testdata/race.tpsr")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n") // header, race, 5 streams, end
	cut := strings.Join(lines[:5], "") + lines[5][:len(lines[5])/2]
	rec, err := recording.Read(strings.NewReader(cut))
	if err == nil || rec.Cut == nil {
		t.Fatalf("the cut recording read as %v, %v", rec, err)
	}
	replay := &Replay{Results: rec.Cut.Results, RecordedAt: rec.Header.RecordedAt, Truncation: rec.Truncation(), Cut: true}
	tm := startProgram(t, Options{Config: rec.Report().Config, Replay: replay})
	waitForAll(t, tm, "TRUNCATED", "race 1 of 1 is incomplete: the recording is broken at line 6")
	waitFor(t, tm, "incomplete ·")
	m := quit(t, tm)
	screen := m.View()
	for _, want := range []string{"TRUNCATED", "race 1 of 1 is incomplete", "✂ truncated", "✓ 1st", " lost ", "no verdict: the race is incomplete (2 lost)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	for _, never := range []string{"finished in", "waiting", "queued", "streaming", "failed"} {
		if strings.Contains(screen, never) {
			t.Errorf("the screen says %q:\n%s", never, screen)
		}
	}
	if len(m.s.history) != 0 {
		t.Error("the cut race went to the history `s` saves")
	}
}
