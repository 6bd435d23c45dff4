package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"tpsrace/benchdoc"
	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/workload"
)

// workloadStep is recordedRace as step k of a run of w: padded to the
// step's input size, each provider's first token later by the size ÷ its
// prefill speed (fast-wafer 40,000 tok/s, deep-thinker 10,000, laptop
// 2,000); a warm request's prefix served from cache (deep-thinker's and
// laptop's: TTFT back to the unpadded one, cached tokens reported); a
// turn's answers slower by a tenth each turn.
func workloadStep(w workload.Workload, k int) [][]probes.Result {
	_, _, results := recordedRace()
	step := w.Steps()[k]
	prefill := []float64{40000, 10000, 2000}
	results = scaledRace(results, 1+0.1*float64(len(step.FollowUps)))
	for i, streams := range results {
		for s := range streams {
			r := &streams[s]
			if step.InputTokens == 0 || r.Usage == nil { // not padded, or refused
				continue
			}
			r.InputTokens = step.InputTokens
			shift := time.Duration(float64(step.InputTokens) / prefill[i] * float64(time.Second))
			usage := *r.Usage
			usage.PromptTokens = step.InputTokens
			if step.Warm && i > 0 { // served from cache: no prefill
				shift, usage.CachedPromptTokens = 0, &step.InputTokens
			}
			r.Usage = &usage
			var events probes.Events
			for e := range r.Events.Values() {
				e.At += shift
				events.Append(e)
			}
			r.Events, r.End = events, r.End+shift
		}
	}
	return results
}

// workloadAt is the dashboard at w × h racing the workload name: the
// run's first done steps finished, then the next played up to race time
// at (to its end and finished when at is an hour; none when done is the
// whole run).
func workloadAt(name string, done int, at time.Duration, w, h int) Model {
	cfg, _, _ := recordedRace()
	cfg.Workload, _ = workload.Named(name)
	m := New(Options{Config: cfg})
	m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
	steps := len(cfg.Workload.Steps())
	for k := range min(done+1, steps) {
		m.s.begin(0, nil)
		m.newPanes()
		m.relayout()
		results := workloadStep(cfg.Workload, k)
		if k == done {
			m = playTo(m, updatesOf(results), at)
			if at < time.Hour {
				break
			}
		} else {
			m = playTo(m, updatesOf(results), time.Hour)
		}
		m = update(m, raceDoneMsg{race: m.s.id, results: results})
	}
	return m
}

// workloadScreens are the workloads' screens: a long-context sweep's second
// size under way and the whole sweep finished, cached-prefix's cold
// request finished and its warm one, a conversation's last turn under
// way, a tool-call and a json race finished.
var workloadScreens = []struct {
	name  string
	build func(w, h int) Model
}{
	{"long-context size 2 of 3", func(w, h int) Model { return workloadAt(workload.LongContext, 1, 700*ms, w, h) }},
	{"long-context sweep", func(w, h int) Model { return workloadAt(workload.LongContext, 2, time.Hour, w, h) }},
	{"cached-prefix cold", func(w, h int) Model { return workloadAt(workload.CachedPrefix, 0, time.Hour, w, h) }},
	{"cached-prefix warm", func(w, h int) Model { return workloadAt(workload.CachedPrefix, 1, time.Hour, w, h) }},
	{"multi-turn turn 3", func(w, h int) Model { return workloadAt(workload.MultiTurn, 2, 700*ms, w, h) }},
	{"multi-turn", func(w, h int) Model { return workloadAt(workload.MultiTurn, 2, time.Hour, w, h) }},
	{"tool-call", func(w, h int) Model { return workloadAt(workload.ToolCall, 0, time.Hour, w, h) }},
	{"json", func(w, h int) Model { return workloadAt(workload.JSON, 0, time.Hour, w, h) }},
}

// boardOf is the leaderboard's text.
func boardOf(m Model) string { return ansi.Strip(m.board.View()) }

// The leaderboard's columns follow the workload, its figures are bench's
// for the same races (the run so far), it ranks as bench does, and its
// verdict waits for the run's last race, then is bench's.
func TestLeaderboardFollowsTheWorkload(t *testing.T) {
	for _, tc := range []struct {
		name    string
		done    int
		headers []string
		waiting string // the verdict line before the run's last race
	}{
		{workload.LongContext, 2, []string{"input", "TTFT", "prefill tok/s"}, "size 2/3 raced"},
		{workload.CachedPrefix, 1, []string{"cold", "warm", "saving", "cached"}, "cold request raced"},
		{workload.MultiTurn, 2, []string{"turn", "TTFT", "conversation"}, "turn 2/3 raced"},
		{workload.ToolCall, 0, []string{"1st call", "complete", "args tok/s", "valid"}, ""},
		{workload.JSON, 0, []string{"1st byte", "valid at", "valid"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.waiting != "" {
				m := workloadAt(tc.name, tc.done-1, time.Hour, 160, 48)
				if board := boardOf(m); !strings.Contains(board, tc.waiting) {
					t.Errorf("before the run's last race the verdict line waits (%q):\n%s", tc.waiting, board)
				}
				if !m.s.run.More() {
					t.Error("the run's next step is not due")
				}
			}
			m := workloadAt(tc.name, tc.done, time.Hour, 160, 48)
			board := boardOf(m)
			for _, h := range tc.headers {
				if !strings.Contains(strings.SplitN(board, "\n", 2)[0], h) {
					t.Errorf("no %q column:\n%s", h, board)
				}
			}
			if m.s.run.More() {
				t.Error("after the run's last race another step is due")
			}
			cfg := m.s.saveConfig(m.c.config)
			b := benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: m.s.history})
			if !strings.Contains(board, "▶ "+b.Verdict.Text) {
				t.Errorf("the verdict is not bench's %q:\n%s", b.Verdict.Text, board)
			}
			var want []string
			for _, i := range b.RankedIndexes() {
				want = append(want, cfg.Providers[i].Name)
			}
			var got []string
			for _, line := range strings.Split(board, "\n")[1:] {
				if f := strings.Fields(line); len(f) > 1 && f[0] >= "0" && f[0] <= "9" {
					got = append(got, f[1])
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("the leaderboard ranks %v, bench %v:\n%s", got, want, board)
			}
			for _, p := range b.Providers {
				for _, cell := range benchCells(tc.name, p.Summary) {
					if !strings.Contains(rowOf(board, p.Name), " "+cell+" ") {
						t.Errorf("%s's row lacks bench's %q:\n%s", p.Name, cell, board)
					}
				}
			}
		})
	}
}

// After one size of a sweep the prefill cells say why there is no estimate
// yet, the board's and the panel's alike (metrics.NoPrefill); a provider
// with no stream of a size (groq, refused) has nothing to say: "-".
func TestPrefillSaysWhyBeforeTheSecondSize(t *testing.T) {
	m := workloadAt(workload.LongContext, 0, time.Hour, 160, 48)
	board, screen := boardOf(m), ansi.Strip(m.View())
	for i, f := range m.figures() {
		name := m.c.config.Providers[i].Name
		want := format.Undefined + " " + string(metrics.PrefillOneSize)
		if f.Workload == nil || f.Workload.Ranked.Sized == 0 {
			want = format.Undefined
		}
		if !strings.Contains(rowOf(board, name), " "+want+" ") {
			t.Errorf("%s's row lacks %q:\n%s", name, want, board)
		}
		lines := 0 // the panel's and the board's
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, name+" ") && strings.Contains(l, want) {
				lines++
			}
		}
		if want != format.Undefined && lines != 2 {
			t.Errorf("%s: %d lines say %q, want the panel's and the board's:\n%s", name, lines, want, screen)
		}
	}
}

// benchCells are a provider's workload figures in bench's summary, as the
// leaderboard writes them.
func benchCells(name string, s benchdoc.Summary) []string {
	var cells []string
	ms := func(v *float64) string {
		if v == nil {
			return format.Undefined
		}
		return format.Duration(time.Duration(*v * float64(time.Millisecond)))
	}
	switch name {
	case workload.LongContext:
		if s.PrefillTPS != nil && *s.PrefillTPS != nil {
			cells = append(cells, "≈ "+format.TPS(**s.PrefillTPS))
		}
	case workload.CachedPrefix:
		c := s.PrefixCache
		cells = append(cells, ms(c.ColdTTFTms.P50), ms(c.WarmTTFTms.P50))
		if c.Saving != nil {
			cells = append(cells, fmt.Sprintf("%.0f%%", *c.Saving*100))
		}
		if c.CachedTokens != nil {
			cells = append(cells, format.Count(int(*c.CachedTokens)))
		}
	case workload.MultiTurn:
		if c := s.ConversationMS; c != nil && c.P50 != nil {
			cells = append(cells, ms(c.P50))
		}
	case workload.ToolCall:
		if s.ToolCall != nil && s.ToolCall.CompleteMS.P50 != nil {
			cells = append(cells, ms(s.ToolCall.CompleteMS.P50))
		}
	case workload.JSON:
		if s.JSON != nil && s.JSON.ValidMS.P50 != nil {
			cells = append(cells, ms(s.JSON.ValidMS.P50))
		}
	}
	return cells
}

// rowOf is provider name's line of the board, with a space at its end.
func rowOf(board, name string) string {
	for _, line := range strings.Split(board, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[1] == name {
			return line + " "
		}
	}
	return ""
}

// Presenter mode's headline is the workload's own figure: the real
// program racing a long-context sweep of two sizes against the simulator
// (p1 prefills 8× faster) counts down before each size, shows the first
// size's TTFT, then the prefill estimate once there are two (its name in
// the description), and ends on
// bench's verdict for the races.
func TestPresentShowsTheWorkloadsFigure(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 20, "sim:ttft=10ms,tps=2000,tokens=20,prefill=40000", "sim:ttft=10ms,tps=2000,tokens=20,prefill=5000")
	cfg.Workload = workload.Workload{Name: workload.LongContext, InputTokens: []int{500, 4000}}
	tm := teatest.NewTestModel(t, New(Options{Config: cfg, Present: true}), teatest.WithInitialTermSize(120, 30))
	var screen strings.Builder
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		screen.Write(b)
		return strings.Contains(screen.String(), "at prefill")
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	m := quit(t, tm)
	if len(m.s.history) != 2 {
		t.Fatalf("%d races, want the sweep's 2", len(m.s.history))
	}
	b := benchdoc.Build(benchdoc.Input{Config: m.s.saveConfig(m.c.config), Concurrency: 1, Races: m.s.history})
	out := ansi.Strip(screen.String())
	for _, want := range []string{"TTFT, input 500", "prefill speed estimate", "p1 is", "1st", b.Verdict.Text[:40]} {
		if !strings.Contains(out, want) {
			t.Errorf("presenter mode never showed %q", want)
		}
	}
	// The estimate's accuracy is cli's bench test's to hold (to 5%, best of
	// several races); here, one sweep on a busy machine (p1's TTFT grows by
	// 88 ms between the sizes), that p1's estimate shows it the faster by far.
	estimate := func(i int) float64 {
		if p := b.Providers[i].Summary.PrefillTPS; p != nil && *p != nil {
			return **p
		}
		return math.NaN()
	}
	if p1, p2 := estimate(0), estimate(1); !(p1 > 2*p2) {
		t.Errorf("prefill estimates p1 %v, p2 %v: want p1's (40,000 tok/s) far above p2's (5,000)", p1, p2)
	}
}

// A run's steps follow one another; race again (r), another prompt or
// another concurrency start the run again from its first step.
func TestRaceAgainStartsTheRunAgain(t *testing.T) {
	cfg, _, _ := recordedRace()
	cfg.Workload, _ = workload.Named(workload.LongContext)
	s := newSession(cfg, 1, false)
	size := func() int { return s.begin(0, nil).Request.InputTokens }
	if a, b := size(), size(); a != 1000 || b != 8000 {
		t.Fatalf("sizes %d, %d: want the sweep's first two", a, b)
	}
	s.newRun()
	if got := size(); got != 1000 {
		t.Errorf("race again races size %d, want the first", got)
	}
	s.prompt = "another prompt"
	if got := size(); got != 1000 {
		t.Errorf("a new prompt races size %d, want the first", got)
	}
	s.concurrency = 4
	if got := size(); got != 1000 {
		t.Errorf("a new concurrency races size %d, want the first", got)
	}
	if got := size(); got != 8000 {
		t.Errorf("then size %d, want the second", got)
	}
}

// The agent loop's estimate is chat's (metrics.Description.AgentLoop): a
// chat lane shows it, no lane of another workload does.
func TestOnlyChatLanesShowTheAgentLoop(t *testing.T) {
	const label = "agent calls"
	if screen := ansi.Strip(finishedRace(160, 48).View()); !strings.Contains(screen, label) {
		t.Errorf("a finished chat race shows no %q:\n%s", label, screen)
	}
	for _, s := range workloadScreens {
		if screen := ansi.Strip(s.build(160, 48).View()); strings.Contains(screen, label) {
			t.Errorf("%s shows %q:\n%s", s.name, label, screen)
		}
	}
}
