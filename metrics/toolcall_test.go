package metrics

import (
	"strings"
	"testing"
	"time"

	"tpsrace/probes"
	"tpsrace/tokens"
	"tpsrace/workload"
)

func weather(t *testing.T) *workload.Schema {
	t.Helper()
	s, err := workload.DefaultTool().Compile()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func td(at time.Duration, index int, id, name, args string) probes.ToolDelta {
	return probes.ToolDelta{At: at, Index: index, ID: id, Name: name, Arguments: args}
}

// Every shape providers stream a call in gives the same call, and the
// definitions' figures exactly.
func TestToolCallShapes(t *testing.T) {
	const args = `{"city":"Paris","unit":"celsius"}`
	split := func(index int) []probes.ToolDelta {
		return []probes.ToolDelta{td(100*ms, index, "call_1", "get_weather", ""),
			td(110*ms, index, "", "", `{"city":`), td(120*ms, index, "", "", `"Paris","unit":`), td(140*ms, index, "", "", `"celsius"}`)}
	}
	splitTPS := float64(tokens.Count(args)-tokens.Count(`{"city":`)) / 0.030
	for _, tc := range []struct {
		name     string
		deltas   []probes.ToolDelta
		events   probes.Events
		calls    int
		complete time.Duration
		tps      float64 // 0: undefined
		problem  string
	}{
		{name: "split", deltas: split(0), calls: 1, complete: 140 * ms, tps: splitTPS},
		{name: "index from 1", deltas: split(1), calls: 1, complete: 140 * ms, tps: splitTPS},
		{name: "empty arguments delta", deltas: append(split(0)[:1], append([]probes.ToolDelta{td(105*ms, 0, "", "", "")}, split(0)[1:]...)...),
			calls: 1, complete: 140 * ms, tps: splitTPS},
		{name: "whole", deltas: []probes.ToolDelta{td(100*ms, 0, "c", "get_weather", args)}, calls: 1, complete: 100 * ms},
		{name: "whole without index", deltas: []probes.ToolDelta{td(100*ms, probes.NoIndex, "c", "get_weather", args)}, calls: 1, complete: 100 * ms},
		{name: "after reasoning", deltas: split(0), events: probes.EventsOf(ev(50*ms, "", 1)), calls: 1, complete: 140 * ms, tps: splitTPS},
		{name: "parallel", deltas: append(split(0), td(150*ms, 1, "call_2", "get_weather", ""), td(160*ms, 1, "", "", `{"city":"Tokyo"}`)),
			calls: 2, complete: 160 * ms, tps: float64(tokens.Count(args)+tokens.Count(`{"city":"Tokyo"}`)-tokens.Count(`{"city":`)) / 0.050},
		{name: "text instead", events: probes.EventsOf(ev(50*ms, "It is sunny.", 4)), problem: "no tool call: answered in text"},
		{name: "nothing", problem: "no tool call"},
		{name: "wrong function", deltas: []probes.ToolDelta{td(100*ms, 0, "c", "get_time", args)}, calls: 1, problem: `called "get_time", not "get_weather"`},
		{name: "missing city", deltas: []probes.ToolDelta{td(100*ms, 0, "c", "get_weather", `{"unit":"celsius"}`)}, calls: 1,
			problem: "arguments do not match the schema"},
		{name: "not JSON", deltas: []probes.ToolDelta{td(100*ms, 0, "c", "get_weather", `{"city":"Par`)}, calls: 1, problem: "arguments are not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &probes.Result{ToolDeltas: tc.deltas, Events: tc.events}
			got := ToolCallOf(r, weather(t))
			if got.Calls != tc.calls {
				t.Fatalf("calls = %d, want %d", got.Calls, tc.calls)
			}
			if tc.problem != "" {
				if got.Valid || !strings.HasPrefix(got.Problem, tc.problem) || got.HasComplete {
					t.Fatalf("got %+v, want invalid: %q…", got, tc.problem)
				}
				return
			}
			if !got.Valid || got.Problem != "" || got.Name != "get_weather" || got.Arguments != args {
				t.Fatalf("got %+v, want a valid get_weather(%s)", got, args)
			}
			if got.First != 100*ms || !got.HasComplete || got.Complete != tc.complete {
				t.Errorf("first %v complete %v (%v), want 100ms and %v", got.First, got.Complete, got.HasComplete, tc.complete)
			}
			wantTokens := tokens.Count(args)
			if tc.calls == 2 {
				wantTokens += tokens.Count(`{"city":"Tokyo"}`)
			}
			if got.ArgsTokens != wantTokens {
				t.Errorf("args tokens %d, want %d", got.ArgsTokens, wantTokens)
			}
			if got.HasArgsTPS != (tc.tps > 0) || got.ArgsTPS != tc.tps {
				t.Errorf("args tok/s %v (%v), want %v", got.ArgsTPS, got.HasArgsTPS, tc.tps)
			}
		})
	}
}

// The call is complete at the delta that closes valid arguments, not at
// the end of the stream.
func TestToolCallCompleteAtClosingDelta(t *testing.T) {
	r := &probes.Result{ToolDeltas: []probes.ToolDelta{td(10*ms, 0, "c", "get_weather", ""),
		td(20*ms, 0, "", "", `{"city":"Paris"`), td(30*ms, 0, "", "", `}`), td(90*ms, 0, "", "", " ")}}
	got := ToolCallOf(r, weather(t))
	if !got.Valid || got.Complete != 30*ms {
		t.Fatalf("got %+v, want valid, complete at 30ms", got)
	}
}

// A provider's run aggregates its streams' calls.
func TestSummaryOfToolCalls(t *testing.T) {
	valid := ToolCall{Calls: 1, First: 100 * ms, Complete: 200 * ms, HasComplete: true, Valid: true}
	invalid := ToolCall{Calls: 1, First: 300 * ms, Problem: "arguments are not JSON"}
	none := ToolCall{Problem: "no tool call"}
	run := SummaryOf([]Stream{{Tool: &valid}, {Tool: &invalid}, {Tool: &none}}, 0)
	if run.ToolStreams != 3 || run.ToolValid != 1 || run.ToolFirst.N != 2 || run.ToolFirst.P50 != 200*ms || run.ToolComplete.N != 1 || run.ToolComplete.P50 != 200*ms {
		t.Fatalf("run %+v", run)
	}
}
