package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/ui/live"
)

// waitForAll waits until the screen output since the last wait contains
// every one of texts.
func waitForAll(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, s := range texts {
			if !bytes.Contains(b, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

// A local server loads in its lane while the others wait; a race key
// pressed meanwhile starts nothing; once Prepare has set the server's base
// URL, every provider races.
func TestPrepareShowsLoadingThenRaces(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 100, "sim:ttft=20ms,tps=1000,tokens=40", "sim:ttft=20ms,tps=300,tokens=40")
	cfg.Providers[0].BaseURL = "" // Prepare's to set, like a spawned llama-server's
	loaded := make(chan struct{})
	prepare := func(ctx context.Context, progress func(int, string)) []Prepared {
		began := time.Now()
		for time.Since(began) < 300*time.Millisecond {
			progress(0, fmt.Sprintf("loading model… %.1fs", time.Since(began).Seconds()))
			time.Sleep(time.Millisecond)
		}
		select { // until the test has seen the lanes
		case <-loaded:
		case <-ctx.Done():
			return []Prepared{{Err: ctx.Err()}, {}}
		}
		return []Prepared{{BaseURL: srv.URL(), Detail: "CPU · 4 threads"}, {}}
	}
	tm := startProgram(t, Options{Config: cfg, Prepare: prepare})
	waitForAll(t, tm, "starting local servers", "◌ loading", "loading model…", "waiting for local servers…")
	tm.Type("r")
	waitFor(t, tm, "the race starts once the local servers are ready")
	close(loaded)
	waitFor(t, tm, "faster than")
	m := quit(t, tm)

	if len(m.s.history) != 1 {
		t.Fatalf("%d races kept, want 1 (r during Prepare starts none)", len(m.s.history))
	}
	for i, res := range lastRace(t, m) {
		if len(res) != 1 || !res[0].OK() {
			t.Errorf("provider %d: %+v", i, res)
		}
	}
}

// A provider Prepare could not ready fails in its lane, with every line of
// its error; the others race, and the verdict counts it as failed.
func TestPrepareErrorFailsOnlyItsLane(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 100, "sim:ttft=20ms,tps=1000,tokens=40", "sim:x", "sim:ttft=20ms,tps=300,tokens=40")
	cfg.Providers[1].BaseURL = "http://127.0.0.1:1/v1" // never reached: it must not race
	notLoaded := errors.New("llama-server exited before its model was loaded (exit status 1); its log is /tmp/tpsrace-llama-server-1.log, ending:\n  llama_model_load: error loading model: bad magic")
	prepare := func(ctx context.Context, progress func(int, string)) []Prepared {
		return []Prepared{{}, {Err: notLoaded}, {}}
	}
	tm := startProgram(t, Options{Config: cfg, Concurrency: 4, Prepare: prepare})
	waitForAll(t, tm, "exited before its model was loaded", "error loading model: bad magic", "faster than", "1 failed")
	m := quit(t, tm)

	race := lastRace(t, m)
	if len(race) != 3 {
		t.Fatalf("the race kept %d providers, want all 3", len(race))
	}
	if len(race[1]) != 1 || !errors.Is(race[1][0].Err, notLoaded) {
		t.Errorf("provider 1: %+v, want its Prepare error", race[1])
	}
	for _, i := range []int{0, 2} {
		if len(race[i]) != 4 {
			t.Fatalf("provider %d: %d streams, want 4", i, len(race[i]))
		}
		for _, res := range race[i] {
			if !res.OK() {
				t.Errorf("provider %d: %v", i, res.Err)
			}
		}
	}
	if f := m.figures()[1]; f.Status != live.Failed || !f.Settled {
		t.Errorf("provider 1's figures %+v, want failed and settled", f)
	}
	if strings.Contains(m.View(), "waiting") {
		t.Errorf("a lane still waits:\n%s", m.View())
	}
}

// q while Prepare runs cancels its context, and the dashboard ends once
// Prepare has returned.
func TestQuitDuringPrepareCancelsIt(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Say hi.", 100, "sim:x")
	returned := false
	prepare := func(ctx context.Context, progress func(int, string)) []Prepared {
		progress(0, "loading model… 0.0s")
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond) // a server stopping takes a while
		returned = true
		return []Prepared{{Err: ctx.Err()}}
	}
	tm := startProgram(t, Options{Config: cfg, Prepare: prepare})
	waitFor(t, tm, "loading model… 0.0s")
	m := quit(t, tm)
	if !returned {
		t.Error("shutdown returned before Prepare did")
	}
	if len(m.s.history) != 0 || m.s.phase != phasePreparing {
		t.Errorf("a race ran: %d kept, phase %v", len(m.s.history), m.s.phase)
	}
}
