package cli

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// Every workload's bench CSV against the simulator: each stream's row has
// the workload's columns, each cell what the JSON of the same race (the
// recording's replay --bench) says, blank where the JSON has null or the
// workload has no such figure, and the figures the simulator makes known.
func TestBenchCSVHasTheWorkloadColumns(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	for _, tc := range []struct {
		workload string
		args     []string
		models   []string
		check    func(t *testing.T, provider string, row map[string]string)
	}{
		{"chat", nil, []string{"sim:ttft=5ms,tps=2000"}, nil},
		// tps=200: the arguments over 50 ms, so that one stall of the
		// machine cannot put every fragment in one read (args_tps undefined).
		{"tool-call", nil, []string{"sim:ttft=5ms,tps=200,tool=split", "sim:ttft=5ms,tps=2000,tokens=10,tool=text"},
			func(t *testing.T, provider string, row map[string]string) {
				if provider == "p1" { // answered in text: no call, so no time to it, no name
					want(t, row, map[string]string{"tool_call_first_ms": "", "tool_call_complete_ms": "", "tool_call_name": "", "tool_call_valid": "false"})
					return
				}
				want(t, row, map[string]string{"tool_call_name": "get_weather", "tool_call_valid": "true"})
				nonBlank(t, row, "tool_call_first_ms", "tool_call_complete_ms", "tool_call_args_tps")
			}},
		{"json", nil, []string{"sim:ttft=5ms,tps=2000"}, func(t *testing.T, _ string, row map[string]string) {
			want(t, row, map[string]string{"json_valid": "true"})
			nonBlank(t, row, "json_first_ms", "json_valid_ms")
		}},
		{"long-context", []string{"--input-tokens", "1000,2000"}, []string{"sim:ttft=5ms,tps=2000,prefill=50000"},
			func(t *testing.T, _ string, row map[string]string) {
				want(t, row, map[string]string{"input_tokens": []string{"1000", "2000"}[atoi(t, row["run"])]})
			}},
		{"cached-prefix", []string{"--input-tokens", "1000"}, []string{"sim:ttft=5ms,tps=2000,prefill=50000,prefixcache=1"},
			func(t *testing.T, _ string, row map[string]string) {
				cold := row["run"] == "0"
				want(t, row, map[string]string{"input_tokens": "1000", "cache": map[bool]string{true: "cold", false: "warm"}[cold],
					"cached_prompt_tokens": map[bool]string{true: "", false: "1000"}[cold]})
			}},
		{"multi-turn", nil, []string{"sim:ttft=5ms,tps=2000,tokens=10"}, func(t *testing.T, _ string, row map[string]string) {
			want(t, row, map[string]string{"turn": strconv.Itoa(atoi(t, row["run"]) + 1)})
		}},
	} {
		t.Run(tc.workload, func(t *testing.T) {
			dir := t.TempDir()
			yaml := "max_tokens: 10\nproviders:\n"
			for i, m := range tc.models {
				yaml += "  - {name: p" + strconv.Itoa(i) + ", base_url: " + srv.URL() + `, model: "` + m + `"}` + "\n"
			}
			cfg := write(t, dir, "p.yaml", yaml)
			args := append([]string{"bench", "--config", cfg, "--workload", tc.workload, "--format", "csv", "--record", "race.tpsr"}, tc.args...)
			code, out, errOut := run(t, dir, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			code, doc, errOut := run(t, dir, "replay", "race.tpsr", "--bench", "--format", "json")
			if code != 0 {
				t.Fatalf("replay: exit %d: %s", code, errOut)
			}
			rows := csvRows(t, out)
			runs := jsonRuns(t, doc)
			if len(rows) != len(runs) || len(rows) == 0 {
				t.Fatalf("%d CSV rows, %d JSON runs:\n%s", len(rows), len(runs), out)
			}
			for i, row := range rows {
				want(t, row, runs[i])
				if tc.check != nil {
					tc.check(t, row["provider"], row)
				}
			}
		})
	}
}

// csvRows are the CSV's rows by column name.
func csvRows(t *testing.T, out string) []map[string]string {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, rec := range records[1:] {
		row := map[string]string{}
		for j, name := range records[0] {
			row[name] = rec[j]
		}
		rows = append(rows, row)
	}
	return rows
}

// jsonRuns are the workload cells each run of the bench JSON doc should
// have in the CSV, in the CSV's order: null and absent are blank.
func jsonRuns(t *testing.T, doc string) []map[string]string {
	t.Helper()
	var d struct {
		Workload  string
		Simulated bool
		Providers []struct {
			Name string
			Runs []struct {
				Run                int
				PromptTokens       int      `json:"prompt_tokens"`
				InputTokens        *int     `json:"input_tokens"`
				CachedPromptTokens *int     `json:"cached_prompt_tokens"`
				ServerPromptTPS    *float64 `json:"server_prompt_tps"`
				Cache              *string
				Turn               *int
				ToolCall           *struct {
					FirstMS    *float64 `json:"first_ms"`
					CompleteMS *float64 `json:"complete_ms"`
					Name       *string
					ArgsTokens int      `json:"args_tokens"`
					ArgsTPS    *float64 `json:"args_tps"`
					Valid      bool
				} `json:"tool_call"`
				JSON *struct {
					FirstMS *float64 `json:"first_ms"`
					ValidMS *float64 `json:"valid_ms"`
					Valid   bool
				} `json:"json"`
			}
		}
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	num := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	count := func(v *int) string {
		if v == nil {
			return ""
		}
		return strconv.Itoa(*v)
	}
	text := func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	}
	var out []map[string]string
	for _, p := range d.Providers {
		for _, r := range p.Runs {
			cells := map[string]string{"provider": p.Name, "run": strconv.Itoa(r.Run), "workload": cmp.Or(d.Workload, "chat"),
				"prompt_tokens": strconv.Itoa(r.PromptTokens), "input_tokens": count(r.InputTokens),
				"cached_prompt_tokens": count(r.CachedPromptTokens), "server_prompt_tps": num(r.ServerPromptTPS),
				"cache": text(r.Cache), "turn": count(r.Turn), "simulated": strconv.FormatBool(d.Simulated)}
			for _, c := range []string{"tool_call_first_ms", "tool_call_complete_ms", "tool_call_name", "tool_call_args_tokens", "tool_call_args_tps",
				"tool_call_valid", "json_first_ms", "json_valid_ms", "json_valid"} {
				cells[c] = ""
			}
			if c := r.ToolCall; c != nil {
				cells["tool_call_first_ms"], cells["tool_call_complete_ms"], cells["tool_call_name"] = num(c.FirstMS), num(c.CompleteMS), text(c.Name)
				cells["tool_call_args_tokens"], cells["tool_call_args_tps"] = strconv.Itoa(c.ArgsTokens), num(c.ArgsTPS)
				cells["tool_call_valid"] = strconv.FormatBool(c.Valid)
			}
			if j := r.JSON; j != nil {
				cells["json_first_ms"], cells["json_valid_ms"], cells["json_valid"] = num(j.FirstMS), num(j.ValidMS), strconv.FormatBool(j.Valid)
			}
			out = append(out, cells)
		}
	}
	return out
}

func want(t *testing.T, row, cells map[string]string) {
	t.Helper()
	for name, v := range cells {
		got, ok := row[name]
		if !ok || got != v {
			t.Errorf("%s run %s: %s is %q (column there: %v), want %q", row["provider"], row["run"], name, got, ok, v)
		}
	}
}

func nonBlank(t *testing.T, row map[string]string, names ...string) {
	t.Helper()
	for _, n := range names {
		if row[n] == "" {
			t.Errorf("%s run %s: %s is blank", row["provider"], row["run"], n)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
