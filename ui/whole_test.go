package ui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/probes"
)

// wholeStates are the states whose screens must never cut a figure: every
// golden state (a race, a finished one, failed lanes, 16 users each, zoomed,
// presenter mode's cards and podium, --finish-at, the heats), and a race
// under way in the second of three heats, a replay whole and truncated, and
// the help page; and the workloads' boards (workloadScreens) and panels
// (workloadStates).
var wholeStates = append(append(slices.Clone(goldenStates), []struct {
	name  string
	build func(w, h int) Model
}{
	{"heat 2 of 3", func(w, h int) Model {
		cfg, updates, results := recordedRace()
		m := New(Options{Config: cfg, Heats: 3})
		m.s.history, m.s.historyPrompt, m.s.historyConc = [][][]probes.Result{scaledRace(results, 1.1)}, cfg.Prompt, 1
		m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
		return playTo(m, updates, 100*ms)
	}},
	{"replay", func(w, h int) Model { return replayAt("", w, h) }},
	{"truncated replay", func(w, h int) Model {
		return replayAt("race 3 of 3 is incomplete: the recording is broken at line 412", w, h)
	}},
	{"help", func(w, h int) Model { return update(finishedRace(w, h), press("?")) }},
}...), workloadScreens...)

func init() { wholeStates = append(wholeStates, workloadStates...) }

// replayAt is recordedRace replayed up to 875ms, with truncation as its
// Truncation.
func replayAt(truncation string, w, h int) Model {
	cfg, updates, results := recordedRace()
	at := time.Date(2026, 12, 3, 7, 51, 0, 0, time.UTC)
	rp := &Replay{Results: results, RecordedAt: at, Clock: NewReplayClock(func() time.Time { return at }), Truncation: truncation}
	return raceAt(Options{Config: cfg, Replay: rp}, updates, 875*ms, w, h)
}

// Nothing on screen is ever cut inside a figure (issue 17): at every width
// from 40 to 240, the header, footer, verdict and lane fields give way
// whole. A cut shows at the end of a line or of a pane's line, or before
// "…": what ends there must not be the start of a figure the same state
// shows in full on a wide screen ("875" of "875µs"), nor the start of one
// of the header's and footer's phrases ("heat" of "heat 2/3").
func TestNoFigureIsCut(t *testing.T) {
	for _, st := range wholeStates {
		for _, h := range []int{24, 48} {
			wide := st.build(400, h)
			figures := figureWords(wide.View())
			phrases := wide.figurePhrases()
			sentences := []string{wide.footer.message} // may give way a word at a time
			if wide.replay != nil {
				sentences = append(sentences, wide.replay.rp.Truncation+"; only whole races count")
			}
			var failing []int
			m := wide
			for w := 40; w <= 240; w++ {
				m = update(m, tea.WindowSizeMsg{Width: w, Height: h}) // as a terminal resized
				view := m.View()
				if cut := cutFigures(view, figures, phrases, sentences); len(cut) > 0 {
					if len(failing) == 0 {
						t.Errorf("%s at %dx%d cuts %s:\n%s", st.name, w, h, strings.Join(cut, ", "), view)
					}
					failing = append(failing, w)
				}
			}
			if len(failing) > 1 {
				t.Errorf("%s at height %d: figures cut at widths %v", st.name, h, failing)
			}
		}
	}
}

// figurePhrases are the header's figures with their words, as the model
// would show them on a screen wide enough: each shows whole or not at all.
func (m *Model) figurePhrases() []string {
	phrases := []string{m.status(), "max " + itoa(m.s.maxTokens) + " tokens"}
	if h := m.heatStatus(); h != "" {
		phrases = append(phrases, ansi.Strip(h))
	}
	if skew, ok := m.s.startSkew(); ok {
		phrases = append(phrases, "start skew "+skew.String())
	}
	return phrases
}

// figureWords are the figures on a screen: the words that begin with a
// digit, after a sign or a parenthesis ("2,000", "±9%", "(95%", "875µs").
func figureWords(view string) map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(ansi.Strip(view), func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(paneEdges, r) }) {
		if figureStart.MatchString(w) {
			words[w] = true
		}
	}
	return words
}

var figureStart = regexp.MustCompile(`^[(±~≈+−-]*[0-9]`)

// paneEdges end a pane's line inside a screen's line.
const paneEdges = "│┃╭╮╰╯╮┏┓┗┛┤"

var lastWord = regexp.MustCompile(`(\S+)$`)

// cutFigures are the figures cut at the end of a line of view or of a pane's line in it.
func cutFigures(view string, figures map[string]bool, phrases, sentences []string) []string {
	var cut []string
	for _, line := range strings.Split(ansi.Strip(view), "\n") {
		inPanes := strings.ContainsAny(line, paneEdges) // the lanes' text may hold any word
		for _, cell := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(paneEdges, r) }) {
			for _, part := range strings.Split(cell, "…") {
				end := strings.TrimRight(part, " ·")
				if end == "" {
					continue
				}
				if w := lastWord.FindString(end); !figures[w] {
					for f := range figures {
						if len(f) > len(w) && strings.HasPrefix(f, w) {
							cut = append(cut, fmt.Sprintf("%q (of %q) in %q", w, f, line))
						}
					}
				}
				for _, p := range phrases {
					if inPanes {
						break
					}
					first := len(strings.Fields(p)[0]) // a part of the first word may be any text's
					for k := range p {
						if k >= first && strings.HasSuffix(end, p[:k]) && (len(end) == k || end[len(end)-k-1] == ' ') && !strings.HasSuffix(end, p) {
							cut = append(cut, fmt.Sprintf("%q (of %q) in %q", p[:k], p, line))
						}
					}
				}
				for _, p := range sentences {
					for k := range p {
						midWord := k > 0 && p[k] != ' ' && p[k-1] != ' '
						open := strings.Count(p[:k], "(") > strings.Count(p[:k], ")")
						atWord := strings.HasSuffix(end, p[:k]) && (len(end) == k || end[len(end)-k-1] == ' ')
						if (midWord || open) && atWord && !inPanes {
							cut = append(cut, fmt.Sprintf("%q (of %q) in %q", p[:k], p, line))
						}
					}
				}
			}
		}
	}
	return cut
}
