package ui

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"tpsrace/config"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// promptTokensServed is the simulator's own count of the prompt tokens it
// has received: 0 until the first request reaches it.
func promptTokensServed(t *testing.T, srv *sim.Server) int {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(srv.URL(), "/v1") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "llamacpp:prompt_tokens_total "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Fatal("no prompt_tokens_total in the simulator's /metrics")
	return 0
}

// Presenter mode counts 3-2-1 before the release, and no request leaves
// before the count is over; it shows provider names only, the speeds in
// big digits, and ends on a podium with the verdict.
func TestPresentCountsDownThenReleases(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 200, "sim:ttft=20ms,tps=800,tokens=120", "sim:ttft=20ms,tps=200,tokens=120")
	began := time.Now()
	tm := teatest.NewTestModel(t, New(Options{Config: cfg, Present: true}), teatest.WithInitialTermSize(120, 30))
	waitFor(t, tm, "every provider gets the prompt at the same instant")
	if n := promptTokensServed(t, srv); n != 0 {
		t.Errorf("during the countdown the simulator already got %d prompt tokens", n)
	}
	var screen strings.Builder
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		screen.Write(b)
		return strings.Contains(screen.String(), "faster than")
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	m := quit(t, tm)

	release := lastRace(t, m)[0][0].Release
	if wait := release.Sub(began); wait < countdownFrom*time.Second {
		t.Errorf("released %v after the start, before the %ds countdown ended", wait, countdownFrom)
	}
	if promptTokensServed(t, srv) == 0 {
		t.Error("the simulator got no request")
	}
	out := screen.String()
	for _, want := range []string{"1st", "2nd", "p1 is", "████"} {
		if !strings.Contains(out, want) {
			t.Errorf("the podium lacks %q", want)
		}
	}
	for _, hidden := range []string{"sim:ttft", srv.URL(), "127.0.0.1"} {
		if strings.Contains(out, hidden) {
			t.Errorf("presenter mode shows %q", hidden)
		}
	}
}

// A new race in presenter mode counts down again; one started during the
// countdown restarts it, and the first count sends nothing.
func TestPresentRaceAgainCountsDownAgain(t *testing.T) {
	cfg, _, _ := recordedRace()
	m := update(New(Options{Config: cfg, Present: true}), raceAgainMsg{})
	if m.s.phase != phaseCountdown || m.present.count != countdownFrom || m.races.current != nil {
		t.Fatalf("phase %v, count %d, race %v: want a countdown and no race", m.s.phase, m.present.count, m.races.current)
	}
	id := m.s.id
	m = update(m, countdownMsg{race: id, left: 2})
	m = update(m, press("r"))
	if m.s.id == id || m.present.count != countdownFrom || m.s.phase != phaseCountdown {
		t.Fatalf("r during the countdown: id %d (was %d), count %d", m.s.id, id, m.present.count)
	}
	m = update(m, countdownMsg{race: id, left: 0}) // the old countdown's end
	if m.races.current != nil {
		t.Fatal("the cancelled countdown released a race")
	}
}

// The countdown, the cards and the podium fill any window exactly, and the
// podium always keeps its verdict.
func TestPresentFitsEverySize(t *testing.T) {
	cfg, updates, results := recordedRace()
	for _, size := range [][2]int{{40, 12}, {80, 24}, {120, 30}, {160, 48}, {240, 60}, {30, 8}} {
		w, h := size[0], size[1]
		m := update(New(Options{Config: cfg, Present: true}), tea.WindowSizeMsg{Width: w, Height: h})
		m = update(m, raceAgainMsg{})
		m.s.begin(0, nil) // the countdown's end, without a live race
		m = update(m, releasedMsg{race: m.s.id, clock: fixedClock(300 * ms)})
		m = update(m, batchMsg{race: m.s.id, updates: updates[:len(updates)/2]})
		mid := m.View()
		m = update(m, batchMsg{race: m.s.id, updates: updates[len(updates)/2:]})
		m = update(m, raceDoneMsg{race: m.s.id, results: results})
		for state, screen := range map[string]string{"mid-race": mid, "podium": m.View()} {
			lines := strings.Split(screen, "\n")
			if len(lines) != h {
				t.Errorf("%dx%d %s: %d lines", w, h, state, len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("%dx%d %s: line %q is %d wide", w, h, state, l, ansi.StringWidth(l))
				}
			}
		}
		if h >= 24 && !strings.Contains(m.View(), "fast-wafer is 8.0× faster than deep-thinker") {
			t.Errorf("%dx%d: the podium lost the verdict:\n%s", w, h, m.View())
		}
	}
}

// Every big glyph has ink a back row sees: at least 2 cells, the decimal
// point included (it was 1, and "25.0" on the podium read as "250").
func TestBigGlyphsAreReadable(t *testing.T) {
	for r, g := range bigGlyphs {
		if ink := strings.Count(strings.Join(g[:], ""), "█"); ink < 2 {
			t.Errorf("glyph %q has %d cells of ink", r, ink)
		}
	}
	rows := bigText("25.0", 1)
	if dot := string([]rune(rows[4])[10:12]); dot != "██" {
		t.Errorf("the decimal point of 25.0 is %q on the last row:\n%s", dot, strings.Join(rows, "\n"))
	}
}

// The countdown grows with the stage, in square cells, and sits in its
// middle; the room is never shown who was skipped (stderr said it before
// the dashboard started).
func TestPresentCountdownScalesAndCentres(t *testing.T) {
	cfg, _, _ := recordedRace()
	cfg.Skipped = []config.Notice{{Provider: "groq-2", Reason: "GROQ_API_KEY is not set"}}
	for _, size := range [][2]int{{80, 24}, {160, 48}, {240, 60}} {
		w, h := size[0], size[1]
		m := update(New(Options{Config: cfg, Present: true}), tea.WindowSizeMsg{Width: w, Height: h})
		m = update(m, raceAgainMsg{})
		lines := strings.Split(m.View(), "\n")
		var ink []int // the rows of the big number
		left, right := w, 0
		for r, l := range lines {
			if i := strings.Index(l, "█"); i >= 0 && !strings.Contains(l, "ready") {
				ink = append(ink, r)
				cells := []rune(l)
				for c, ch := range cells {
					if ch == '█' {
						left, right = min(left, c), max(right, c+1)
					}
				}
			}
		}
		if len(ink) < h/3 {
			t.Errorf("%dx%d: the countdown is %d rows high, want at least a third of the screen:\n%s", w, h, len(ink), m.View())
		}
		if mid := (ink[0] + ink[len(ink)-1]) / 2; mid < h/3 || mid > h*2/3 {
			t.Errorf("%dx%d: the countdown's middle is row %d, not the screen's middle third", w, h, mid)
		}
		if d := left - (w - right); d < -1 || d > 1 {
			t.Errorf("%dx%d: the countdown is not centred: %d columns left of it, %d right", w, h, left, w-right)
		}
		if strings.Contains(m.View(), "skipped") || strings.Contains(m.View(), "groq-2") {
			t.Errorf("%dx%d: presenter mode shows the skipped providers:\n%s", w, h, m.View())
		}
	}
}
