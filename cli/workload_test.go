package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// A tool-call bench against the simulator: every shape's call parses and
// validates, the JSON says which workload and each stream's call, and the
// replay of its recording is the same report byte for byte.
func TestBenchToolCall(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", `providers:
  - {name: split, base_url: `+srv.URL()+`, model: "sim:ttft=10ms,tps=900,tool=split"}
  - {name: whole, base_url: `+srv.URL()+`, model: "sim:ttft=150ms,tps=900,tool=whole"}
  - {name: texter, base_url: `+srv.URL()+`, model: "sim:ttft=5ms,tps=900,tokens=10,tool=text"}
`)
	code, _, errOut := run(t, dir, "bench", "--config", cfg, "--workload", "tool-call", "--format", "json", "--out", "live.json", "--record", "race.tpsr")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	srv.Close()
	live, _ := os.ReadFile(filepath.Join(dir, "live.json"))
	var doc struct {
		Workload  string `json:"workload"`
		Prompt    string `json:"prompt"`
		Verdict   struct{ Metric, Text string }
		Tool      struct{ Name string }
		Providers []struct {
			Name string
			Rank int
			Runs []struct {
				Workload string
				ToolCall *struct {
					FirstMS    *float64 `json:"first_ms"`
					CompleteMS *float64 `json:"complete_ms"`
					Name       *string
					Arguments  *string
					ArgsTokens int `json:"args_tokens"`
					Valid      bool
					Problem    *string
				} `json:"tool_call"`
			}
			Summary struct {
				ToolCall *struct{ Valid, Streams int } `json:"tool_call"`
			}
		}
	}
	if err := json.Unmarshal(live, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Workload != "tool-call" || doc.Tool.Name != "get_weather" || !strings.Contains(doc.Prompt, "weather in Paris") {
		t.Fatalf("workload %q tool %q prompt %q", doc.Workload, doc.Tool.Name, doc.Prompt)
	}
	// Ranked by the time to a complete call: a text answer comes last.
	if doc.Verdict.Metric != "tool_call_complete" || !strings.HasPrefix(doc.Verdict.Text, "split is ") ||
		!strings.Contains(doc.Verdict.Text, " faster than whole to a complete tool call (") {
		t.Errorf("verdict %+v", doc.Verdict)
	}
	for _, p := range doc.Providers {
		call := p.Runs[0].ToolCall
		if call == nil || p.Runs[0].Workload != "tool-call" || p.Summary.ToolCall == nil || p.Summary.ToolCall.Streams != 1 {
			t.Fatalf("%s: no tool_call in %s", p.Name, live)
		}
		if p.Name == "texter" {
			if p.Rank != 3 {
				t.Errorf("texter ranked %d", p.Rank)
			}
			if call.Valid || call.Problem == nil || *call.Problem != "no tool call: answered in text" || call.FirstMS != nil {
				t.Errorf("texter: %+v", call)
			}
			continue
		}
		if !call.Valid || *call.Name != "get_weather" || *call.Arguments != `{"city":"Paris","unit":"celsius"}` || call.CompleteMS == nil || *call.CompleteMS < *call.FirstMS {
			t.Errorf("%s: %+v", p.Name, call)
		}
	}
	code, _, errOut = run(t, dir, "replay", "race.tpsr", "--bench", "--format", "json", "--out", "replayed.json")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	if replayed, _ := os.ReadFile(filepath.Join(dir, "replayed.json")); string(replayed) != string(live) {
		t.Fatalf("the replayed report differs:\nlive:\n%s\nreplayed:\n%s", live, replayed)
	}
}

func TestWorkloadFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--workload", "toolcall"}, `--workload "toolcall": want one of chat, tool-call, long-context, cached-prefix, json, multi-turn; did you mean tool-call?`},
		{[]string{"bench", "--input-tokens", "1000"}, "--input-tokens applies only to --workload long-context or cached-prefix"},
		{[]string{"bench", "--workload", "long-context", "--input-tokens", "1000,x"}, `--input-tokens "1000,x": want whole numbers`},
	} {
		code, _, errOut := run(t, t.TempDir(), tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// A json race: the simulator answers an instance of the schema asked for,
// which validates as it completes; the ranking and the verdict are on the
// time to valid JSON.
func TestBenchJSONAnswer(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", `workload: json
providers:
  - {name: slow, base_url: `+srv.URL()+`, model: "sim:ttft=80ms,tps=300"}
  - {name: fast, base_url: `+srv.URL()+`, model: "sim:ttft=10ms,tps=2000"}
`)
	code, out, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Workload  string
		Verdict   struct{ Metric, Text string }
		Providers []struct {
			Name string
			Rank int
			Runs []struct {
				JSON *struct {
					FirstMS     *float64 `json:"first_ms"`
					ValidMS     *float64 `json:"valid_ms"`
					Valid       bool
					PrefixShare float64 `json:"prefix_share"`
				} `json:"json"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Workload != "json" || doc.Verdict.Metric != "json_valid" || !strings.HasPrefix(doc.Verdict.Text, "fast is ") ||
		!strings.Contains(doc.Verdict.Text, "faster than slow to valid JSON (") || doc.Providers[1].Rank != 1 {
		t.Errorf("verdict %+v", doc.Verdict)
	}
	for _, p := range doc.Providers {
		j := p.Runs[0].JSON
		if j == nil || !j.Valid || j.PrefixShare != 1 || j.FirstMS == nil || j.ValidMS == nil || *j.ValidMS < *j.FirstMS {
			t.Errorf("%s: %+v", p.Name, j)
		}
	}
}

// replay --workload checks the recording's workload: the same is a no-op,
// another is refused (a replay shows what was raced), an unknown name too.
func TestReplayWorkloadFlag(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", "providers:\n  - {name: p, base_url: "+srv.URL()+`, model: "sim:ttft=5ms,tps=2000"}`+"\n")
	if code, _, errOut := run(t, dir, "bench", "--config", cfg, "--workload", "json", "--record", "race.tpsr"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, want, _ := run(t, dir, "replay", "race.tpsr", "--bench", "--format", "json")
	if code, out, errOut := run(t, dir, "replay", "race.tpsr", "--bench", "--format", "json", "--workload", "json"); code != 0 || out != want {
		t.Errorf("the recording's own workload: exit %d, %s", code, errOut)
	}
	for workload, refusal := range map[string]string{"chat": "--workload chat: race.tpsr was raced under json, and a replay shows what was raced",
		"jsn": `--workload "jsn": want one of chat, tool-call, long-context, cached-prefix, json, multi-turn; did you mean json?`} {
		if code, out, errOut := run(t, dir, "replay", "race.tpsr", "--bench", "--workload", workload); code != 2 || out != "" || !strings.Contains(errOut, refusal) {
			t.Errorf("--workload %s: exit %d, stdout %q, stderr %q", workload, code, out, errOut)
		}
	}
}
