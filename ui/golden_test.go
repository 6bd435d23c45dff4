package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/tokens"
)

func update(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

// raceAt is the dashboard at w × h with a recorded race played up to race
// time at: the events that arrived by then and the streams that had ended,
// on a clock stopped at at. Nothing depends on the wall clock.
func raceAt(opts Options, updates []probes.Update, at time.Duration, w, h int) Model {
	m := New(opts)
	m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
	return playTo(m, updates, at)
}

// playTo releases m's race on a clock stopped at race time at and hands
// it the updates that had arrived by then.
func playTo(m Model, updates []probes.Update, at time.Duration) Model {
	m.s.phase = phaseRacing
	m = update(m, releasedMsg{race: m.s.id, clock: fixedClock(at)})
	var arrived []probes.Update
	for _, u := range updates {
		var by probes.Events // the stream's events that had arrived by at
		for e := range u.Events.Values() {
			if e.At <= at {
				by.Append(e)
			}
		}
		if by.Len() > 0 {
			arrived = append(arrived, probes.Update{Provider: u.Provider, Stream: u.Stream, Events: by})
		}
		if u.Done != nil && u.Done.End <= at {
			arrived = append(arrived, u)
		}
	}
	m = update(m, batchMsg{race: m.s.id, updates: arrived})
	m.refresh()
	return m
}

// finishedRace is the dashboard at the end of recordedRace, at w × h.
func finishedRace(w, h int) Model { return finishedWith(Options{}, w, h) }

// finishedWith is finishedRace with opts (its Config is recordedRace's).
func finishedWith(opts Options, w, h int) Model {
	cfg, updates, results := recordedRace()
	opts.Config = cfg
	m := raceAt(opts, updates, time.Hour, w, h)
	return update(m, raceDoneMsg{race: m.s.id, results: results})
}

// goldenSizes are the window sizes every golden state is drawn at.
var goldenSizes = [][2]int{{80, 24}, {120, 40}, {160, 48}, {240, 60}}

// goldenStates are the dashboard's states, each built at a size. Their
// configs carry real-looking long model IDs, which must never push a
// lane's badge out of its title.
var goldenStates = []struct {
	name  string
	build func(w, h int) Model
}{
	{"mid-race", func(w, h int) Model {
		cfg, updates, _ := recordedRace()
		return raceAt(Options{Config: cfg}, updates, 700*ms, w, h)
	}},
	{"finished", finishedRace},
	{"failed", func(w, h int) Model {
		cfg, updates, results := failingRace()
		m := raceAt(Options{Config: cfg}, updates, 2*time.Second, w, h)
		return update(m, raceDoneMsg{race: m.s.id, results: results})
	}},
	{"zoomed", func(w, h int) Model { return update(finishedRace(w, h), press("2")) }},
	{"tok-s-chart", func(w, h int) Model { return update(finishedRace(w, h), press("v")) }},
	{"C=16", func(w, h int) Model {
		cfg, updates := queuedRace(16)
		return raceAt(Options{Config: cfg, Concurrency: 16}, updates, 2500*ms, w, h)
	}},
	{"presenter", func(w, h int) Model {
		cfg, updates, _ := recordedRace()
		return raceAt(Options{Config: cfg, Present: true}, updates, 700*ms, w, h)
	}},
	{"podium", func(w, h int) Model { return finishedWith(Options{Present: true}, w, h) }},
	// laptop's 60-token answer stops short of the finish at 100.
	{"finish-at", func(w, h int) Model { return finishedWith(Options{FinishAt: 100}, w, h) }},
	{"heats-mid-race", func(w, h int) Model { return heatsAt(700*ms, w, h) }},
	{"heats", func(w, h int) Model { return heatsAt(time.Hour, w, h) }},
}

// Goldens of every state at every size (go test ./ui -update rewrites
// them under testdata/TestGolden/).
func TestGolden(t *testing.T) {
	for _, s := range goldenStates {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", s.name, size[0], size[1]), func(t *testing.T) {
				view := s.build(size[0], size[1]).View()
				if lines := strings.Split(view, "\n"); len(lines) != size[1] {
					t.Errorf("%d lines", len(lines))
				}
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// v switches the chart between the race (tokens so far) and live tok/s,
// and the choice stays for the next race.
func TestChartKeySwitchesThePlot(t *testing.T) {
	m := finishedRace(160, 48)
	if !strings.Contains(m.View(), "tokens so far") {
		t.Fatalf("the chart starts on the race:\n%s", m.View())
	}
	m = update(m, press("v"))
	if !strings.Contains(m.View(), "live tok/s · log scale") || strings.Contains(m.View(), "tokens so far") {
		t.Fatalf("v shows live tok/s on the lanes' log scale:\n%s", m.View())
	}
	m.newPanes()
	m.relayout()
	m.refresh()
	if !strings.Contains(m.View(), "live tok/s") {
		t.Errorf("a new race keeps the chart's plot:\n%s", m.View())
	}
}

// failingRace is recordedRace where the laptop's connection breaks after
// 20 words and the reasoning model's server answers 503: only one
// provider completes.
func failingRace() (*config.Config, []probes.Update, [][]probes.Result) {
	cfg, _, results := recordedRace()
	laptop := &results[2][0]
	var head probes.Events
	for k, e := range laptop.Events.All() {
		if k < 20 {
			head.Append(e)
		}
	}
	laptop.Events = head
	laptop.Usage, laptop.FinishReason = nil, ""
	laptop.End = laptop.Events.Event(19).At + 30*ms
	laptop.Err = &probes.Failure{Kind: probes.KindNetwork, Message: "connection reset by peer"}
	results[1][0] = probes.Result{Provider: "deep-thinker", Model: cfg.Providers[1].Model, Release: fixtureRelease, End: 90 * ms,
		Err: &probes.Failure{Kind: probes.KindHTTP, Status: 503, Message: "model is overloaded", RetryAfter: "2"}}
	return cfg, updatesOf(results), results
}

// queuedRace is two providers racing c users each: a local server with 4
// slots, whose later streams wait in its queue (TTFT grows in steps of
// one answer's time), and a cloud API that serves every user at once.
func queuedRace(c int) (*config.Config, []probes.Update) {
	cfg := &config.Config{
		Prompt:    "Summarise the plot of Hamlet in two sentences.",
		MaxTokens: 120,
		Providers: []config.Provider{
			{Name: "my-vllm", Model: "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4"},
			{Name: "together", Model: "meta-llama/Llama-3.3-70B-Instruct-Turbo"},
		},
	}
	words := strings.Fields("a prince returns home to find his father dead and his uncle on the throne and a ghost tells him to take revenge")
	stream := func(provider, ttft, gap time.Duration, n int) probes.Result {
		r := probes.Result{Provider: cfg.Providers[provider].Name, Release: fixtureRelease}
		at := ttft
		for i := range n {
			w := " " + words[i%len(words)]
			r.Events.Append(probes.Event{At: at, Content: w, Tokens: tokens.Count(w)})
			at += gap
		}
		r.End, r.FinishReason = at, "stop"
		return r
	}
	results := make([][]probes.Result, 2)
	for k := range c {
		results[0] = append(results[0], stream(0, 120*ms+time.Duration(k/4)*800*ms, 8*ms, 100))
		results[1] = append(results[1], stream(1, 350*ms+time.Duration(k)*7*ms, 14*ms, 100))
	}
	return cfg, updatesOf(results)
}

// scaledRace is a race's results with every time × f (f > 1: slower), for
// heats that differ.
func scaledRace(results [][]probes.Result, f float64) [][]probes.Result {
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) * f) }
	out := make([][]probes.Result, len(results))
	for i, streams := range results {
		for _, r := range streams {
			var events probes.Events
			for e := range r.Events.Values() {
				e.At = scale(e.At)
				events.Append(e)
			}
			r.Events = events
			r.End = scale(r.End)
			out[i] = append(out[i], r)
		}
	}
	return out
}

// heatsAt is --heats 3 with two heats run (recordedRace 10% slower, then
// 5% faster) and the third played up to race time at, or to its end (then
// finished, as after the last heat).
func heatsAt(at time.Duration, w, h int) Model {
	cfg, updates, results := recordedRace()
	m := raceAt(Options{Config: cfg, Heats: 3}, updates, at, w, h)
	m.s.history, m.s.historyPrompt, m.s.historyConc = [][][]probes.Result{scaledRace(results, 1.1), scaledRace(results, 0.95)}, cfg.Prompt, m.s.conc
	if at < time.Hour {
		m.showHeats(m.heatsReport()) // as newPanes shows them when the heat starts
		m.refresh()
		return m
	}
	return update(m, raceDoneMsg{race: m.s.id, results: results})
}
