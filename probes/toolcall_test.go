package probes_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/testenv"
	"tpsrace/tokens"
	"tpsrace/workload"
)

func raceTool(t *testing.T, baseURL, model string) probes.Result {
	t.Helper()
	p := config.Provider{Name: "p", BaseURL: baseURL, Model: model}
	res := probes.Race{Providers: []config.Provider{p},
		Request: probes.Request{Prompt: workload.ToolPrompt, MaxTokens: 100, Tool: workload.DefaultTool()}}.Run(context.Background(), nil)
	return res[0][0]
}

func weatherSchema(t *testing.T) *workload.Schema {
	t.Helper()
	s, err := workload.DefaultTool().Compile()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// OpenAI's recorded tool-call stream (../shared/fixtures/sse, INDEX.md:
// tool_calls deltas only, finish_reason tool_calls, 24 argument chars)
// parses into its call: get_weather({"city":"New York City"}), complete at
// the delta that closed the arguments.
func TestRecordedToolCallStream(t *testing.T) {
	body, err := os.ReadFile(filepath.Join(testenv.Require(t, "fixtures"), "sse", "openai-gpt4o-toolcall.sse"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for b := body; len(b) > 0; {
			n := min(len(b), 97)
			w.Write(b[:n])
			w.(http.Flusher).Flush()
			b = b[n:]
		}
	}))
	defer srv.Close()
	res := raceTool(t, srv.URL+"/v1", "gpt-4o")
	if res.Err != nil || res.FinishReason != "tool_calls" || res.Events.Len() != 0 {
		t.Fatalf("err %v, finish %q, %d text events", res.Err, res.FinishReason, res.Events.Len())
	}
	const args = `{"city":"New York City"}`
	got := metrics.ToolCallOf(&res, weatherSchema(t))
	if got.Calls != 1 || got.Name != "get_weather" || got.Arguments != args || len([]rune(got.Arguments)) != 24 || !got.Valid {
		t.Fatalf("call %+v, want one valid get_weather(%s)", got, args)
	}
	last := res.ToolDeltas[len(res.ToolDeltas)-1]
	if got.First != res.ToolDeltas[0].At || !got.HasComplete || got.Complete != last.At || last.Arguments != `"}` {
		t.Errorf("first %v complete %v, want the first delta's %v and the closing delta's %v", got.First, got.Complete, res.ToolDeltas[0].At, last.At)
	}
	if got.ArgsTokens != tokens.Count(args) {
		t.Errorf("args tokens %d, want %d", got.ArgsTokens, tokens.Count(args))
	}
	if f := metrics.Compute(&res, 0); f.OutputTokens != 16 || f.HasTTFT {
		t.Errorf("output tokens %d (usage 16), TTFT defined %v (no text came)", f.OutputTokens, f.HasTTFT)
	}
}

// The simulator streams a call in each provider's shape; each parses into
// the call the simulator made, with the arguments its schema asks for.
func TestSimulatedToolCallShapes(t *testing.T) {
	base := startSim(t)
	const args = `{"city":"Paris","unit":"celsius"}`
	for _, tc := range []struct {
		shape     string
		reasoning bool
		calls     int
		problem   string
	}{
		{shape: "split", calls: 1},
		{shape: "whole", calls: 1},
		{shape: "noindex", calls: 1},
		{shape: "index1", calls: 1},
		{shape: "emptyargs", calls: 1},
		{shape: "split", reasoning: true, calls: 1},
		{shape: "parallel", calls: 2},
		{shape: "text", problem: "no tool call: answered in text"},
	} {
		model := toolModel(2000, tc.shape, tc.reasoning)
		t.Run(model, func(t *testing.T) {
			res := raceTool(t, base, model)
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			got := metrics.ToolCallOf(&res, weatherSchema(t))
			if got.Calls != tc.calls || got.Problem != tc.problem {
				t.Fatalf("call %+v, want %d calls, problem %q", got, tc.calls, tc.problem)
			}
			if tc.problem != "" {
				return
			}
			if res.FinishReason != "tool_calls" || !got.Valid || got.Name != "get_weather" || got.Arguments != args {
				t.Fatalf("finish %q, call %+v, want a valid get_weather(%s)", res.FinishReason, got, args)
			}
			if got.First < 5*time.Millisecond || !got.HasComplete || got.Complete < got.First {
				t.Errorf("first %v, complete %v", got.First, got.Complete)
			}
			wantTokens := tokens.Count(args)
			if tc.calls == 2 {
				wantTokens += tokens.Count(`{"city":"Tokyo","unit":"celsius"}`)
			}
			if got.ArgsTokens != wantTokens {
				t.Errorf("args tokens %d, want %d", got.ArgsTokens, wantTokens)
			}
			if whole := tc.shape == "whole" || tc.shape == "noindex"; whole && got.HasArgsTPS {
				t.Errorf("args tok/s defined for shape %s, whose arguments come in one delta", tc.shape)
			} else if !whole {
				// Its fragments 10 ms apart, not 0.5 ms: a loaded client
				// (CI's packages beside it) reads 0.5 ms apart fragments together.
				argsSpeedDefined(t, base, toolModel(100, tc.shape, tc.reasoning))
			}
			if tc.reasoning {
				if f := metrics.Compute(&res, 0); !f.HasTTFT || f.TTFT > got.First {
					t.Errorf("reasoning came at %v, the call at %v", f.TTFT, got.First)
				}
			}
		})
	}
}

// toolModel is the simulated model answering with a call of the shape, at
// tps tokens a second.
func toolModel(tps int, shape string, reasoning bool) string {
	model := fmt.Sprintf("sim:ttft=5ms,tps=%d,tokens=20,tool=%s", tps, shape)
	if reasoning {
		model += ",reasoning=10"
	}
	return model
}

// argsSpeedDefined holds that arguments streamed in fragments have a
// speed. It is a timing: events are stamped at the read that delivered
// them, so fragments a loaded client reads together share one instant and
// leave no span to divide by (seen under CI's parallel packages).
func argsSpeedDefined(t *testing.T, base, model string) {
	t.Helper()
	testenv.Timed(t, func(a *testenv.Attempt) {
		res := raceTool(t, base, model)
		a.Load = metrics.Saturation(res.Load)
		if !metrics.ToolCallOf(&res, weatherSchema(t)).HasArgsTPS {
			a.Missf("args tok/s undefined: the argument fragments were read together")
		}
	})
}

// A call cut mid-arguments fails as a text answer would, and its message
// counts the deltas it brought: its arguments are no text, so "after 0
// tokens" would say nothing had come.
func TestToolCallCutMidArguments(t *testing.T) {
	res := raceTool(t, startSim(t), "sim:ttft=5ms,tps=2000,tool=split,fault=close,after=4")
	f, ok := res.Err.(*probes.Failure)
	if !ok || f.Kind != probes.KindNetwork || len(res.ToolDeltas) == 0 {
		t.Fatalf("err %v with %d tool-call deltas, want a network failure after some", res.Err, len(res.ToolDeltas))
	}
	if want := fmt.Sprintf("connection closed mid-stream after %d tool-call deltas", len(res.ToolDeltas)); f.Message != want {
		t.Errorf("message %q, want %q", f.Message, want)
	}
	if got := metrics.ToolCallOf(&res, weatherSchema(t)); got.Valid || got.HasComplete {
		t.Errorf("a cut call reads as %+v, want it neither valid nor complete", got)
	}

	stalled := config.Provider{Name: "p", BaseURL: startSim(t), Model: "sim:ttft=5ms,tps=2000,tool=split,fault=stall,after=4",
		Timeout: config.Timeouts{Connect: 2 * time.Second, FirstToken: 2 * time.Second, Stall: 200 * time.Millisecond, Total: 5 * time.Second}}
	res = probes.Race{Providers: []config.Provider{stalled},
		Request: probes.Request{Prompt: workload.ToolPrompt, MaxTokens: 100, Tool: workload.DefaultTool()}}.Run(context.Background(), nil)[0][0]
	if want := fmt.Sprintf("stalled 200ms after %d tool-call deltas", len(res.ToolDeltas)); res.Err == nil || res.Err.(*probes.Failure).Message != want || len(res.ToolDeltas) == 0 {
		t.Errorf("stalled call: %v, want %q", res.Err, want)
	}
}
