package ui

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/ui/live"
)

// A session runs a race through its phases without Bubble Tea: begin
// describes the race, the release starts its clock, the results settle it
// and go to the history, which a new prompt starts afresh.
func TestSessionLifecycle(t *testing.T) {
	cfg, updates, results := recordedRace()
	s := newSession(cfg, 1, false)
	if s.phase != phaseIdle || len(s.live) != 4 {
		t.Fatalf("new session: phase %v, %d lanes", s.phase, len(s.live))
	}
	race := s.begin(2, nil)
	if s.phase != phaseStarting || s.id != 1 || len(race.Providers) != 4 || race.Retries != 2 || race.Request.Prompt != cfg.Prompt {
		t.Fatalf("begin: phase %v, id %d, race %+v", s.phase, s.id, race)
	}
	if s.now() != 0 {
		t.Errorf("race time before the release: %v", s.now())
	}
	s.released(fixedClock(300 * ms))
	s.record(updates)
	if s.phase != phaseRacing || s.now() != 300*ms {
		t.Fatalf("released: phase %v, now %v", s.phase, s.now())
	}
	s.finish(results)
	if s.phase != phaseFinished || s.end != results[2][0].End || s.now() != s.end {
		t.Fatalf("finished: phase %v, end %v, now %v; want the slowest stream's end %v", s.phase, s.end, s.now(), results[2][0].End)
	}
	if f := s.figures(s.now()); f[0].Status != live.Done || f[3].Status != live.Failed {
		t.Errorf("figures: %v, %v", f[0].Status, f[3].Status)
	}
	s.begin(0, nil)
	s.finish(results)
	if len(s.history) != 2 {
		t.Fatalf("%d races in the history, want 2", len(s.history))
	}
	s.prompt = "another prompt"
	s.begin(0, nil)
	s.finish(results)
	if len(s.history) != 1 || s.historyPrompt != "another prompt" {
		t.Errorf("a new prompt starts a new history: %d races of %q", len(s.history), s.historyPrompt)
	}
}

// The race on screen is refereed over the history, as `s` saves it and
// bench referees its runs: who answered changing between races flags the
// second, which alone looks clean.
func TestSessionRefereesTheHistory(t *testing.T) {
	cfg, updates, results := recordedRace()
	served := func(fingerprint string) [][]probes.Result { return servedBy(results, fingerprint) }
	s := newSession(cfg, 1, false)
	for k, fingerprint := range []string{"fp_a", "fp_b"} {
		s.begin(0, nil)
		s.released(fixedClock(0))
		s.record(updates)
		s.finish(served(fingerprint))
		flags := metrics.FlagsOfText(s.figures(s.now())[0].Flags)
		if _, changed := flags[metrics.FlagModelSubstituted]; changed != (k == 1) {
			t.Errorf("race %d: flags %v; want model_substituted only once the fingerprint changed", k+1, flags)
		}
	}
}

// servedBy is a copy of results whose first provider's first stream says
// the system_fingerprint it was served by.
func servedBy(results [][]probes.Result, fingerprint string) [][]probes.Result {
	race := make([][]probes.Result, len(results))
	for p := range results {
		race[p] = slices.Clone(results[p])
	}
	race[0][0].Served.Fingerprint = fingerprint
	return race
}

// A stopped race keeps the time it stopped at; a countdown sends nothing
// until begin, which then races that same race.
func TestSessionStopAndCountdown(t *testing.T) {
	cfg, _, _ := recordedRace()
	s := newSession(cfg, 4, false)
	s.begin(0, nil)
	s.released(fixedClock(2 * time.Second))
	s.stop()
	if s.phase != phaseStopped || s.now() != 2*time.Second {
		t.Fatalf("stopped: phase %v, now %v", s.phase, s.now())
	}
	s.countdown()
	id := s.id
	if s.phase != phaseCountdown || s.now() != 0 || s.phase.running() {
		t.Fatalf("countdown: phase %v, now %v", s.phase, s.now())
	}
	if race := s.begin(0, nil); s.id != id || race.Concurrency != 4 {
		t.Errorf("begin after the countdown: id %d (want %d), concurrency %d", s.id, id, race.Concurrency)
	}
}

// What Prepare found is applied to the session's own providers, never to
// the config: a new base URL and detail for the ready, a failed lane out of
// the race for the others.
func TestSessionAppliesPrepared(t *testing.T) {
	cfg, _, _ := recordedRace()
	s := newSession(cfg, 1, true)
	if s.phase != phasePreparing {
		t.Fatalf("phase %v, want preparing", s.phase)
	}
	broken := errors.New("llama-server exited")
	s.prepared([]Prepared{{BaseURL: "http://127.0.0.1:8080/v1", Detail: "CPU · 8 threads"}, {Err: broken}, {}, {}})
	race := s.begin(0, nil)
	if len(race.Providers) != 3 || race.Providers[0].BaseURL != "http://127.0.0.1:8080/v1" || cfg.Providers[0].BaseURL != "" {
		t.Fatalf("race providers %+v; config's first base URL %q", race.Providers, cfg.Providers[0].BaseURL)
	}
	if s.live[0].Detail != "CPU · 8 threads" {
		t.Errorf("detail %q", s.live[0].Detail)
	}
	if f := s.figures(0)[1]; f.Status != live.Failed || !errors.Is(f.Err, broken) {
		t.Errorf("the provider Prepare could not ready: %+v", f)
	}
	// The race reports its providers by their index in the race: 1 is laptop.
	s.record([]probes.Update{{Provider: 1, Events: probes.EventsOf(probes.Event{At: ms, Content: "hi", Tokens: 1})}})
	if s.live[2].Answer() != "hi" {
		t.Errorf("laptop's answer %q", s.live[2].Answer())
	}
}

// The relay hands the program the release before any batch, whatever the
// source: here a live race against the simulator.
func TestReleasedComesFirst(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "hi", 50, "sim:ttft=0s,tps=5000,tokens=50", "sim:ttft=0s,tps=5000,tokens=50")
	r := startRace(context.Background(), 7, liveRace{probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: "hi", MaxTokens: 50}}})
	defer r.wait()
	var got []string
	for msg := range r.out {
		switch msg := msg.(type) {
		case releasedMsg:
			if msg.race != 7 || msg.clock.Now() < 0 {
				t.Errorf("released %+v", msg)
			}
			got = append(got, "released")
		case batchMsg:
			got = append(got, "batch")
		case raceDoneMsg:
			got = append(got, "done")
			if len(msg.results) != 2 || !msg.results[0][0].OK() {
				t.Errorf("results %+v", msg.results)
			}
		}
	}
	if len(got) < 3 || got[0] != "released" || got[len(got)-1] != "done" {
		t.Errorf("messages %v, want released, batches, done", got)
	}
}
