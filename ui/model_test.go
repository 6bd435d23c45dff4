package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/config"
)

func press(s string) tea.KeyMsg {
	switch s {
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// Any window size, before, during and after a race, gives a screen of
// exactly that many lines, none wider than the window.
func TestResizeMidRaceFitsEverySize(t *testing.T) {
	cfg, updates, results := recordedRace()
	m := New(Options{Config: cfg})
	check := func(m Model, w, h int) {
		t.Helper()
		lines := strings.Split(m.View(), "\n")
		if w > 0 && h > 0 && len(lines) != h {
			t.Fatalf("%dx%d: %d lines", w, h, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Fatalf("%dx%d: line %q is %d wide", w, h, l, ansi.StringWidth(l))
			}
		}
	}
	sizes := [][2]int{{80, 24}, {0, 0}, {1, 1}, {40, 12}, {39, 11}, {120, 40}, {240, 60}, {20, 50}, {200, 8}}
	for _, s := range sizes {
		m = update(m, tea.WindowSizeMsg{Width: s[0], Height: s[1]})
		check(m, s[0], s[1])
	}
	m = update(m, releasedMsg{race: m.s.id, clock: fixedClock(300 * ms)})
	m = update(m, batchMsg{race: m.s.id, updates: updates[:len(updates)/2]})
	for _, s := range sizes {
		m = update(m, tea.WindowSizeMsg{Width: s[0], Height: s[1]})
		check(m, s[0], s[1])
		m = update(m, press("2"))
		check(m, s[0], s[1])
		m = update(m, press("esc"))
		m = update(m, press("?"))
		check(m, s[0], s[1])
		m = update(m, press("esc"))
	}
	m = update(m, raceDoneMsg{race: m.s.id, results: results})
	for w := 30; w <= 200; w += 17 {
		for h := 8; h <= 60; h += 7 {
			m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
			check(m, w, h)
		}
	}
}

func TestKeysFocusZoomAndBack(t *testing.T) {
	m := finishedRace(120, 40)
	m = update(m, press("tab"))
	if !m.focus.is(0) || !strings.Contains(m.View(), "┏━ 1 fast-wafer") {
		t.Fatalf("tab focuses lane 1 (thick border):\n%s", m.View())
	}
	m = update(m, press("shift+tab"))
	if !m.focus.is(3) {
		t.Fatalf("shift+tab wraps to the last lane, focus %+v", m.focus)
	}
	m = update(m, press("2"))
	if m.state != stateZoom || m.zoom != 1 || !m.c.layout.Zoomed || strings.Contains(m.View(), "fast-wafer") {
		t.Fatalf("2 zooms lane 2 alone:\n%s", m.View())
	}
	m = update(m, press("tab"))
	if m.zoom != 2 || !strings.Contains(m.View(), "3 laptop") {
		t.Fatalf("tab in zoom moves to lane 3:\n%s", m.View())
	}
	m = update(m, press("9")) // no 9th lane
	if m.zoom != 2 {
		t.Fatalf("9 with 4 lanes changed the zoom to %d", m.zoom)
	}
	m = update(m, press("esc"))
	if m.state != stateGrid || m.c.layout.Zoomed {
		t.Fatal("esc leaves the zoom")
	}
	m = update(m, press("esc"))
	if m.focus.ok {
		t.Fatal("a second esc drops the focus")
	}
}

func TestKeysConcurrencyPauseHelpEditor(t *testing.T) {
	m := finishedRace(120, 40)
	for _, want := range []int{4, 16, 64, 1} {
		m = update(m, press("c"))
		if m.s.concurrency != want {
			t.Fatalf("c: concurrency %d, want %d", m.s.concurrency, want)
		}
	}
	m = update(m, press("c"))
	if !strings.Contains(m.View(), "C=1 (next 4)") || !strings.Contains(m.View(), "press r") {
		t.Errorf("the next race's concurrency is shown:\n%s", m.View())
	}

	m = update(m, press("p"))
	if !m.paused || !strings.Contains(m.View(), "PAUSED") {
		t.Fatal("p pauses")
	}
	if next, cmd := m.Update(frameMsg{tick: m.tick}); cmd != nil || next.(Model).View() != m.View() {
		t.Error("a paused dashboard does not redraw or tick")
	}
	m = update(m, press("p"))

	m = update(m, press("?"))
	if m.state != stateHelp || !strings.Contains(m.View(), "focus previous lane") {
		t.Errorf("? shows the full help:\n%s", m.View())
	}
	m = update(m, press("?"))

	prompt := m.s.prompt
	m = update(m, press("e"))
	if m.state != stateEditor || !strings.Contains(m.View(), "Edit the prompt") {
		t.Fatal("e opens the editor")
	}
	m = update(m, press("q")) // typed into the editor, not quitting
	m = update(m, press("esc"))
	if m.state != stateGrid || m.s.prompt != prompt {
		t.Fatalf("esc cancels the edit: mode %v, prompt %q", m.state, m.s.prompt)
	}
}

func TestStaleMessagesAreDropped(t *testing.T) {
	m := finishedRace(80, 24)
	before := m.View()
	if _, cmd := m.Update(frameMsg{tick: m.tick - 1}); cmd != nil {
		t.Error("a stale tick chain goes on")
	}
	_, updates, _ := recordedRace()
	m = update(m, releasedMsg{race: m.s.id - 1, clock: fixedClock(0)})
	m = update(m, batchMsg{race: m.s.id - 1, updates: updates})
	m = update(m, raceDoneMsg{race: m.s.id - 1})
	if m.View() != before || len(m.s.history) != 1 {
		t.Error("messages of an old race changed the screen")
	}
}

func TestSaveBeforeAnyRaceSaysSo(t *testing.T) {
	cfg, _, _ := recordedRace()
	m := update(New(Options{Config: cfg}), tea.WindowSizeMsg{Width: 100, Height: 30})
	m = update(m, press("s"))
	if !strings.Contains(m.View(), "saving is not available") {
		t.Errorf("no Save func:\n%s", m.View())
	}
}

// `?` and `q` are on screen at every width from 40, in every mode, with or
// without a message; the less important keys drop first.
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	for w := 40; w <= 200; w += 7 {
		m := finishedRace(w, 24)
		for _, keys := range []string{"", "2", "?", "c"} {
			if keys != "" {
				m = update(m, press(keys))
			}
			lines := strings.Split(m.View(), "\n")
			footer := lines[len(lines)-1]
			if !strings.Contains(footer, "? help") || !strings.Contains(footer, "q quit") {
				t.Fatalf("%d columns after %q: footer %q", w, keys, footer)
			}
			if w >= 120 && keys == "" && !strings.Contains(footer, "s save results") {
				t.Errorf("%d columns: footer %q drops keys that fit", w, footer)
			}
		}
	}
}

// The providers skipped for a missing key or a server that is down are
// noted in the header for the whole session, in a few words (mid-race,
// finished, zoomed); the help page names each with why.
func TestSkippedProvidersStayOnScreen(t *testing.T) {
	cfg, updates, results := recordedRace()
	cfg.Skipped = []config.Notice{
		{Provider: "groq-2", Where: "providers.yaml:9:5", Reason: "GROQ_API_KEY is not set"},
		{Provider: "my-vllm", Where: "providers.yaml:14:5", Reason: "nothing is listening at http://127.0.0.1:9/v1"},
	}
	const want = "2 skipped · ? lists them"
	m := update(New(Options{Config: cfg}), tea.WindowSizeMsg{Width: 160, Height: 40})
	m = update(m, releasedMsg{race: m.s.id, clock: fixedClock(300 * ms)})
	m = update(m, batchMsg{race: m.s.id, updates: updates})
	check := func(when string) {
		t.Helper()
		if header := strings.Split(m.View(), "\n")[0]; !strings.Contains(header, want) {
			t.Fatalf("%s: header %q lacks %q", when, header, want)
		}
	}
	check("mid-race")
	m = update(m, raceDoneMsg{race: m.s.id, results: results})
	check("finished")
	m = update(m, press("1"))
	check("zoomed")
	text, _ := helpText(m)
	if !strings.Contains(text, "groq-2 — GROQ_API_KEY is not set my-vllm — nothing is listening at http://127.0.0.1:9/v1") {
		t.Errorf("the help page does not list the skipped providers:\n%s", text)
	}
}

// A prompt too long for its line ends with "…", the max tokens still shown.
func TestLongPromptEndsWithEllipsis(t *testing.T) {
	cfg, _, _ := recordedRace()
	cfg.Prompt = "Explain how a CPU cache works in three paragraphs, then compare it with a TLB."
	m := update(New(Options{Config: cfg}), tea.WindowSizeMsg{Width: 80, Height: 24})
	prompt := strings.Split(m.View(), "\n")[1]
	if !strings.Contains(prompt, "Explain how a CPU cache works in three paragraphs, then…") || !strings.HasSuffix(prompt, "· max 400 tokens") || ansi.StringWidth(prompt) != 80 {
		t.Errorf("prompt line %q", prompt)
	}
	m = finishedRace(160, 48)
	if prompt := strings.Split(m.View(), "\n")[1]; strings.Contains(prompt, "…") {
		t.Errorf("a prompt that fits is not cut: %q", prompt)
	}
}

// helpText is every help page's text, turned with ?, and the state the
// last ? leaves.
func helpText(m Model) (string, Model) {
	m = update(m, press("?"))
	var text strings.Builder
	for range 10 {
		if m.state != stateHelp {
			break
		}
		// The page as drawn, but for the line that turns or closes it: a
		// meaning wrapped over two pages reads on.
		for _, line := range m.drawn.pages[m.drawn.helpAt] {
			if !strings.HasPrefix(ansi.Strip(line), "? next page") && !strings.HasPrefix(ansi.Strip(line), "? or esc closes") {
				text.WriteString(ansi.Strip(line) + "\n")
			}
		}
		m = update(m, press("?"))
	}
	return strings.Join(strings.Fields(text.String()), " "), m
}

// `?` defines every label the dashboard can show (vocabulary), over as
// many pages as the window needs, and names the skipped providers.
func TestHelpExplainsTheFigures(t *testing.T) {
	cfg, updates, results := recordedRace()
	cfg.Skipped = []config.Notice{{Provider: "groq", Where: "providers.yaml:3:5", Reason: "GROQ_API_KEY is not set"}}
	for _, size := range goldenSizes {
		m := raceAt(Options{Config: cfg}, updates, time.Hour, size[0], size[1])
		m = update(m, raceDoneMsg{race: m.s.id, results: results})
		text, after := helpText(m)
		if after.state != stateGrid {
			t.Errorf("%dx%d: ? on the last page closes the help: mode %v", size[0], size[1], after.state)
		}
		for _, term := range vocabulary() {
			if !strings.Contains(text, term.Label) || !strings.Contains(text, strings.Join(strings.Fields(term.Means), " ")) {
				t.Errorf("%dx%d: help lacks %q or %q:\n%s", size[0], size[1], term.Label, term.Means, text)
			}
		}
		if !strings.Contains(text, "groq — GROQ_API_KEY is not set") {
			t.Errorf("%dx%d: help does not name the skipped provider:\n%s", size[0], size[1], text)
		}
		// The header's "? lists them" is kept on the first press.
		if first := ansi.Strip(strings.Join(update(m, press("?")).drawn.pages[0], "\n")); !strings.Contains(first, "groq — GROQ_API_KEY is not set") {
			t.Errorf("%dx%d: the first help page does not name the skipped provider:\n%s", size[0], size[1], first)
		}
	}
	m := update(finishedRace(80, 24), press("?"))
	if m = update(m, press("esc")); m.state != stateGrid {
		t.Errorf("esc leaves the help: mode %v", m.state)
	}
}

// The zoomed lane shows where the time to first token went on the network:
// the request leaving, DNS, connect, TLS, the first byte.
func TestZoomShowsTheNetworkPhases(t *testing.T) {
	m := update(finishedRace(120, 40), press("1"))
	if want := "network  sent +12µs · DNS 1.0ms · connect 2.0ms · TLS 9.0ms · first byte 209ms"; !strings.Contains(m.View(), want) {
		t.Errorf("zoomed lane lacks %q:\n%s", want, m.View())
	}
}

// The verdict waits for the race's end, not the last lane's: only then is
// the race kept (what `s` saves) and refereed (its ⚑). A verdict shown a
// moment earlier stood for a race the history did not hold yet.
func TestVerdictWaitsForTheRacesEnd(t *testing.T) {
	cfg, updates, results := recordedRace()
	m := update(New(Options{Config: cfg}), tea.WindowSizeMsg{Width: 160, Height: 40})
	m = update(m, releasedMsg{race: m.s.id, clock: fixedClock(300 * ms)})
	m = update(m, batchMsg{race: m.s.id, updates: updates})
	for i, p := range m.s.live {
		if !p.Snapshot(m.s.now()).Settled {
			t.Fatalf("provider %d has not settled: the recorded race should end every stream", i)
		}
	}
	if v := m.View(); strings.Contains(v, "▶ ") {
		t.Errorf("a verdict before the race ended:\n%s", v)
	}
	m = update(m, raceDoneMsg{race: m.s.id, results: results})
	if v := m.View(); !strings.Contains(v, "▶ ") {
		t.Errorf("no verdict once the race ended:\n%s", v)
	}
}
