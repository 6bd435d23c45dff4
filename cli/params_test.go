package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"tpsrace/sim"
)

// A provider's params override what the workload puts in the request, and
// the override is what goes on the wire: tool_choice (a named function;
// "none", which the simulator then honours by answering in text) and
// response_format switched to json_object (the schema then not sent).
func TestParamsOverrideTheWorkloadsRequest(t *testing.T) {
	srv, bodies := bodyRecordingSimulator(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", `max_tokens: 10
providers:
  - {name: required, base_url: `+srv.URL+`/v1, model: "sim:ttft=5ms,tps=2000"}
  - {name: named, base_url: `+srv.URL+`/v1, model: "sim:ttft=6ms,tps=2000", params: {tool_choice: {type: function, function: {name: get_weather}}}}
  - {name: none, base_url: `+srv.URL+`/v1, model: "sim:ttft=7ms,tps=2000", params: {tool_choice: none}}
  - {name: mode, base_url: `+srv.URL+`/v1, model: "sim:ttft=8ms,tps=2000", params: {response_format: {type: json_object}}}
`)
	code, out, errOut := run(t, dir, "bench", "--config", cfg, "--workload", "tool-call", "--only", "required,named,none", "--format", "json")
	if code != 0 {
		t.Fatalf("tool-call: exit %d: %s", code, errOut)
	}
	for model, want := range map[string]string{"sim:ttft=5ms,tps=2000": `"required"`,
		"sim:ttft=6ms,tps=2000": `{"function":{"name":"get_weather"},"type":"function"}`, "sim:ttft=7ms,tps=2000": `"none"`} {
		if got := string(bodies[model]["tool_choice"]); got != want || !strings.Contains(string(bodies[model]["tools"]), `"name":"get_weather"`) {
			t.Errorf("%s: tool_choice %s (tools %s), want %s", model, got, bodies[model]["tools"], want)
		}
	}
	checkToolChoiceNoneAnswersInText(t, out)
	code, out, errOut = run(t, dir, "bench", "--config", cfg, "--workload", "json", "--only", "required,mode", "--format", "json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errOut)
	}
	checkJSONModeIsNotTheSchema(t, out)
	if got := string(bodies["sim:ttft=8ms,tps=2000"]["response_format"]); got != `{"type":"json_object"}` {
		t.Errorf("params' response_format: %s on the wire", got)
	}
	if got := string(bodies["sim:ttft=5ms,tps=2000"]["response_format"]); !strings.Contains(got, `"type":"json_schema"`) || !strings.Contains(got, `"strict":true`) ||
		!strings.Contains(got, `"temperature_c"`) {
		t.Errorf("the workload's response_format: %s on the wire", got)
	}
}

// bodyRecordingSimulator is the simulator behind a handler that keeps
// each model's last request body, by field, to see what went on the wire.
func bodyRecordingSimulator(t *testing.T) (*httptest.Server, map[string]map[string]json.RawMessage) {
	t.Helper()
	var mu sync.Mutex
	bodies := map[string]map[string]json.RawMessage{} // by model
	simulator := sim.NewHandler(sim.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var fields map[string]json.RawMessage
		if json.Unmarshal(body, &fields) == nil {
			var model string
			json.Unmarshal(fields["model"], &model)
			mu.Lock()
			bodies[model] = fields
			mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		simulator.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, bodies
}

// checkToolChoiceNoneAnswersInText checks the tool-call bench: only the
// provider whose params say tool_choice none answers in text.
func checkToolChoiceNoneAnswersInText(t *testing.T, out string) {
	t.Helper()
	var doc struct {
		Providers []struct {
			Name string
			Runs []struct {
				ToolCall struct {
					Valid   bool
					Problem *string
				} `json:"tool_call"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Providers {
		call := p.Runs[0].ToolCall
		if p.Name == "none" != (!call.Valid && call.Problem != nil && *call.Problem == "no tool call: answered in text") {
			t.Errorf("%s: %+v", p.Name, call)
		}
	}
}

// checkJSONModeIsNotTheSchema checks the json bench: the workload's
// request is answered valid, the one switched to JSON mode invalid.
func checkJSONModeIsNotTheSchema(t *testing.T, out string) {
	t.Helper()
	// The simulator answers JSON mode with a JSON object, not in the
	// schema's shape (it was not sent): JSON, judged invalid, with the problem.
	var answers struct {
		Providers []struct {
			Name string
			Runs []struct {
				JSON struct {
					Valid       bool
					Problem     *string
					PrefixShare *float64 `json:"prefix_share"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &answers); err != nil {
		t.Fatal(err)
	}
	for _, p := range answers.Providers {
		a := p.Runs[0].JSON
		mismatch := a.Problem != nil && strings.HasPrefix(*a.Problem, "the answer does not match the schema: missing properties 'city'")
		if p.Name == "required" && !a.Valid || p.Name == "mode" && (a.Valid || !mismatch || a.PrefixShare == nil || *a.PrefixShare != 1) {
			raw, _ := json.Marshal(a)
			t.Errorf("%s's answer: %s", p.Name, raw)
		}
	}
}
