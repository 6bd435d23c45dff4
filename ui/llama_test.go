package ui

import (
	"context"
	"testing"

	"tpsrace/config"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// A llama.cpp lane against the simulator's llama-server emulation (one
// slot): the queue note follows each race's concurrency, and the zoomed
// lane reads what the server counts from its /metrics.
func TestLlamaLaneQueueNoteAndServerMetrics(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{Slots: 1})
	cfg := &config.Config{Prompt: "Hi.", MaxTokens: 100, Providers: []config.Provider{{
		Name: "laptop", Kind: config.KindLlamaCpp, BaseURL: srv.URL(), Model: "sim:ttft=10ms,tps=100,tokens=40,timings=1", Timeout: config.DefaultTimeouts,
	}}}
	prepared := func(context.Context, func(int, string)) []Prepared {
		return []Prepared{{Detail: "tiny · 1 slot", Slots: 1}}
	}
	tm := startProgram(t, Options{Config: cfg, Concurrency: 3, Prepare: prepared})
	waitFor(t, tm, "3 users > 1 slot: 2 queue on the server · tiny · 1 slot")
	waitFor(t, tm, "streamed at")

	tm.Type("1")
	waitFor(t, tm, "llama-server /metrics: 0 busy slots · 0 deferred · 120 tokens generated at")
	tm.Type("c")
	tm.Type("r")
	waitFor(t, tm, "4 users > 1 slot: 3 queue on the server")
	// Mid-race the one slot is busy and the others wait for it.
	waitFor(t, tm, "llama-server /metrics: 1 busy slot · ")
	waitFor(t, tm, "0 busy slots · 0 deferred · 280 tokens generated") // both races: 3×40 + 4×40
	quit(t, tm)
}
