package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/tokens"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

const ms = time.Millisecond

// fixedClock is a race clock stopped at one race time.
type fixedClock time.Duration

func (c fixedClock) Now() time.Duration { return time.Duration(c) }

// fixtureRelease is when the fixtures' races were released: a stream with
// a release was sent (metrics.StartSkewOf counts it).
var fixtureRelease = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// recordedRace is a deterministic race: four providers with exact event
// times — a fast one, a reasoning one, a slow one, and one whose key is
// refused — as the updates a live race would deliver, and its results.
func recordedRace() (*config.Config, []probes.Update, [][]probes.Result) {
	price := &config.Price{InputPerMTok: 0.6, OutputPerMTok: 0.8}
	cfg := &config.Config{
		Prompt:    "Explain how a CPU cache works in three paragraphs.",
		MaxTokens: 400,
		Providers: []config.Provider{
			{Name: "fast-wafer", Model: "accounts/fireworks/models/llama-v3p3-70b-instruct", Price: price},
			{Name: "deep-thinker", Model: "deepseek-ai/DeepSeek-R1-Distill-Llama-70B"},
			{Name: "laptop", Model: "llama3.2:3b-instruct-q4_K_M"},
			{Name: "groq", Model: "meta-llama/Llama-3.3-70B-Instruct-Turbo", KeyVar: "GROQ_API_KEY"},
		},
	}
	words := strings.Fields(`a cache keeps the data a core will need next close to it so most loads
		finish in a few cycles instead of the long trip to main memory each line holds a small block
		and when the core asks for an address the cache checks its tags first`)
	stream := func(ttft, gap time.Duration, thinking, answer int) []probes.Event {
		var events []probes.Event
		at := ttft
		for i := range thinking + answer {
			w := " " + words[i%len(words)]
			e := probes.Event{At: at, Tokens: tokens.Count(w)}
			if i < thinking {
				e.Reasoning = w
			} else {
				e.Content = w
			}
			events = append(events, e)
			at += gap
		}
		return events
	}
	done := func(i int, events []probes.Event, err error) probes.Result {
		r := probes.Result{Provider: cfg.Providers[i].Name, Model: cfg.Providers[i].Model, Events: probes.EventsOf(events...), Err: err, Price: cfg.Providers[i].Price,
			Release: fixtureRelease, Sent: time.Duration(12+9*i) * time.Microsecond}
		if len(events) > 0 { // a fresh connection, then the answer
			r.Phases = probes.Phases{DNS: ms, Connected: 2 * ms, TLS: 9 * ms, WroteRequest: 9 * ms, FirstByte: events[0].At - ms}
		}
		n := 0
		for _, e := range events {
			n += e.Tokens
			r.End = e.At + 5*ms
		}
		if err == nil {
			r.Usage = &probes.Usage{PromptTokens: 12, CompletionTokens: n, TotalTokens: 12 + n}
			r.FinishReason = "stop"
		} else {
			r.End = 40 * ms
		}
		return r
	}
	results := [][]probes.Result{
		{done(0, stream(210*ms, 500*time.Microsecond, 0, 400), nil)},
		{done(1, stream(150*ms, 4*ms, 120, 180), nil)},
		{done(2, stream(600*ms, 40*ms, 0, 60), nil)},
		{done(3, nil, &probes.Failure{Kind: probes.KindHTTP, Status: 401, Code: "invalid_api_key", Message: "Invalid API Key", Hint: "check GROQ_API_KEY"})},
	}
	return cfg, updatesOf(results), results
}

// updatesOf is how a live race delivers results: every stream's record,
// then its end (playTo hands on the events that had arrived by a time).
func updatesOf(results [][]probes.Result) []probes.Update {
	var updates []probes.Update
	for i, streams := range results {
		for s := range streams {
			updates = append(updates, probes.Update{Provider: i, Stream: s, Events: streams[s].Events},
				probes.Update{Provider: i, Stream: s, Done: &streams[s]})
		}
	}
	return updates
}
