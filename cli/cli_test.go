package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// run calls Main in dir and returns its exit status, stdout and stderr.
func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBenchWithoutConfigRacesTheSimulator(t *testing.T) {
	code, out, errOut := run(t, t.TempDir(), "bench", "--simulated", "--format", "markdown", "--only", "sim-wafer,sim-lpu", "--max-tokens", "60")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"|   # | provider ", "|   1 | sim-wafer ", "|   2 | sim-lpu ", "SIMULATED"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "SIMULATED") || !strings.Contains(errOut, "race 1/1") {
		t.Errorf("stderr should say the race is simulated and show progress:\n%s", errOut)
	}
	// A CSV keeps no note: every row says it is simulated.
	code, out, errOut = run(t, t.TempDir(), "bench", "--simulated", "--format", "csv", "--only", "sim-wafer,sim-lpu", "--max-tokens", "20")
	rows := csvRows(t, out)
	if code != 0 || len(rows) != 2 {
		t.Fatalf("csv: exit %d, %d rows: %s\n%s", code, len(rows), errOut, out)
	}
	for _, row := range rows {
		if row["simulated"] != "true" {
			t.Errorf("%s's csv row says simulated %q", row["provider"], row["simulated"])
		}
	}
}

func TestBenchJSONContract(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", `max_tokens: 30
providers:
  - name: fast
    base_url: `+srv.URL()+`
    model: "sim:ttft=10ms,tps=1000,tokens=30"
    price: {input_per_mtok: 1, output_per_mtok: 2}
  - name: broken
    base_url: `+srv.URL()+`
    model: "sim:fault=500"
`)
	code, _, errOut := run(t, dir, "bench", "--config", cfg, "--runs", "2", "--concurrency", "2", "--format", "json", "--out", "r.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != "tpsrace.bench/v1" {
		t.Errorf("schema %v", doc["schema"])
	}
	providers := doc["providers"].([]any)
	fast, broken := providers[0].(map[string]any), providers[1].(map[string]any)
	runs := fast["runs"].([]any)
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 2 runs × 2 streams", len(runs))
	}
	r := runs[0].(map[string]any)
	for _, key := range []string{"ok", "error", "ttft_ms", "e2e_ms", "output_tokens", "token_source", "o200k_tokens", "output_tps",
		"content_chars", "reasoning_chars", "finish_reason", "itl_ms", "server_tps"} {
		if _, ok := r[key]; !ok {
			t.Errorf("run lacks %q", key)
		}
	}
	if r["ok"] != true || r["output_tokens"] != 30.0 || r["token_source"] != "usage" || r["server_tps"] != nil {
		t.Errorf("run = %v", r)
	}
	s := fast["summary"].(map[string]any)
	for _, key := range []string{"ok", "failed", "ttft_ms", "output_tps", "aggregate_tps", "cost_usd"} {
		if _, ok := s[key]; !ok {
			t.Errorf("summary lacks %q", key)
		}
	}
	if s["ok"] != 4.0 || s["cost_usd"] == nil {
		t.Errorf("summary = %v", s)
	}
	bs := broken["summary"].(map[string]any)
	if bs["failed"] != 4.0 || bs["output_tps"].(map[string]any)["p50"] != nil {
		t.Errorf("broken summary = %v", bs)
	}
	if e := broken["runs"].([]any)[0].(map[string]any)["error"]; e == nil || !strings.Contains(e.(string), "500") {
		t.Errorf("broken run error = %v", e)
	}
}

func TestBadConfigSaysWhereAndExits2(t *testing.T) {
	dir := t.TempDir()
	cfg := write(t, dir, "providers.yaml", "providers:\n  - name: x\n    base_url: https://example.invalid/v1\n    modle: m\n")
	code, _, errOut := run(t, dir, "bench")
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errOut, filepath.Base(cfg)+":4:5") || !strings.Contains(errOut, `did you mean "model"`) {
		t.Errorf("stderr should name file:line:col and the fix:\n%s", errOut)
	}
}

// The simulator only when asked: a providers file none of whose providers
// can race is refused by bench, watch and check (exit 2, each provider and
// why, nothing started), as is no file at all; --simulated races the
// built-in providers on purpose, the file left unread.
func TestSimulatorOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "providers.yaml", "providers:\n  - name: groq\n    base_url: https://api.groq.com/openai/v1\n    api_key: ${TPSRACE_TEST_UNSET_KEY}\n    model: llama\n"+
		"  - name: cerebras\n    base_url: https://api.cerebras.ai/v1\n    api_key: ${TPSRACE_TEST_UNSET_KEY_2}\n    model: llama\n")
	const refusal = "tpsrace: providers.yaml: no provider can race: all were skipped: groq (TPSRACE_TEST_UNSET_KEY is not set); " +
		"cerebras (TPSRACE_TEST_UNSET_KEY_2 is not set); to race the built-in simulated providers instead, pass --simulated\n"
	for _, args := range [][]string{{"bench"}, {"watch", "--metrics-addr", "127.0.0.1:0"}, {"check"}, {"bench", "--config", "providers.yaml", "--format", "json"}} {
		code, out, errOut := run(t, dir, args...)
		if code != 2 || out != "" || errOut != refusal {
			t.Errorf("%q: exit %d, stdout %q, stderr:\n%q\nwant 2 and only:\n%q", args, code, out, errOut, refusal)
		}
	}
	const noFile = "tpsrace: nothing to race: no providers.yaml here and no --config FILE (see docs/CONFIG.md); to race the built-in simulated providers instead, pass --simulated\n"
	for _, args := range [][]string{{"bench"}, {"watch"}, {"check"}} {
		if code, _, errOut := run(t, t.TempDir(), args...); code != 2 || errOut != noFile {
			t.Errorf("%q with no providers file: exit %d, stderr %q, want 2 and %q", args, code, errOut, noFile)
		}
	}
	code, out, errOut := run(t, dir, "bench", "--simulated", "--only", "sim-wafer", "--max-tokens", "20", "--format", "json")
	if code != 0 || !strings.Contains(out, `"simulated": true`) || !strings.Contains(out, `"sim-wafer"`) || strings.Contains(errOut, "groq") ||
		!strings.Contains(errOut, "--simulated was given: racing the built-in SIMULATED providers") {
		t.Errorf("--simulated: exit %d, stderr %q, stdout:\n%s\nwant the simulated race, labelled, providers.yaml unread", code, errOut, out)
	}
	// check races nothing: it says what it does.
	if code, _, errOut := run(t, dir, "check", "--simulated"); code != 0 ||
		!strings.Contains(errOut, "--simulated was given: checking the built-in SIMULATED providers") || strings.Contains(errOut, "racing") {
		t.Errorf("check --simulated: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := run(t, dir, "bench", "--simulated", "--config", "providers.yaml"); code != 2 || !strings.Contains(errOut, "give one of them") {
		t.Errorf("--simulated with --config: exit %d, stderr %q, want 2", code, errOut)
	}
}

func TestDashboardNeedsATerminal(t *testing.T) {
	code, _, errOut := run(t, t.TempDir())
	if code != 2 || !strings.Contains(errOut, "tpsrace bench") {
		t.Errorf("exit %d, stderr %q: want 2 and a pointer to tpsrace bench", code, errOut)
	}
}

func TestFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--concurrency", "0"},
		{"bench", "--format", "xml"},
		{"bench", "--only", "nobody"},
		{"bench", "--runs", "0"},
		{"frobnicate"},
		{"--theme", "solarized"},
	} {
		if code, _, errOut := run(t, t.TempDir(), args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d (%q), want 2 with a message", args, code, errOut)
		}
	}
}

// Local entries that cannot run are skipped like a missing key, each with
// why; when none is left bench refuses, naming them.
func TestLocalEntriesThatCannotRunAreSkipped(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "providers.yaml", `providers:
  - name: ollama
    base_url: http://127.0.0.1:1/v1
    model: llama3.2
  - name: workstation
    kind: llamacpp
    base_url: http://127.0.0.1:1/v1
  - name: laptop
    kind: llamacpp
    model: `+filepath.Join(dir, "missing.gguf")+`
`)
	code, _, errOut := run(t, dir, "bench", "--max-tokens", "20")
	if code != 2 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"no provider can race", "ollama (nothing is listening", "workstation (no llama-server at", "laptop (model file not found"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code, _, errOut := run(t, dir, "bench", "--only", "ollama"); code != 2 || !strings.Contains(errOut, "ollama is skipped") {
		t.Errorf("--only a skipped provider: exit %d, %q", code, errOut)
	}
}

// An attached llama.cpp server: the hardware line, its own tok/s in the
// report, and its /metrics totals over the races.
func TestBenchLlamaCppAttached(t *testing.T) {
	srv := simtest.Start(t, sim.Options{Slots: 2})
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: ws\n    kind: llamacpp\n    base_url: "+srv.URL()+"\n    model: \"sim:ttft=10ms,tps=500,tokens=40,timings=1\"\n")
	code, out, errOut := run(t, dir, "bench", "--config", cfg, "--runs", "2", "--concurrency", "4", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"ws: tpsrace-simulator · ctx", "2 slots", "4 users > 2 slots", "server counted", "320 generated tokens"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if rows := strings.Split(strings.TrimSpace(out), "\n"); len(rows) != 9 || strings.Contains(rows[1], ",stop,,") {
		t.Errorf("want 8 runs with server_tps filled:\n%s", out)
	}
}

// A mistyped --only lists every name not in the race, each with the
// closest known one, then the names there are (skipped ones with why), and
// nothing else; when the simulated providers race, it says why and names them.
func TestOnlySuggestsTheClosestName(t *testing.T) {
	t.Setenv("TPSRACE_TEST_SET_KEY", "sk-test")
	dir := t.TempDir()
	write(t, dir, "providers.yaml", "providers:\n  - name: groq\n    base_url: https://api.groq.com/openai/v1\n    api_key: ${TPSRACE_TEST_SET_KEY}\n    model: m\n"+
		"  - name: cerebras\n    base_url: https://api.cerebras.ai/v1\n    api_key: ${TPSRACE_TEST_UNSET_KEY}\n    model: m\n")
	code, out, errOut := run(t, dir, "bench", "--only", "grok,cerebras,nobody")
	want := `tpsrace: --only: no provider named "grok" (did you mean groq?); cerebras is skipped: TPSRACE_TEST_UNSET_KEY is not set; no provider named "nobody": ` +
		`the providers are groq, cerebras (skipped: TPSRACE_TEST_UNSET_KEY is not set)` + "\n"
	if code != 2 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%q\nwant 2 and only:\n%q", code, out, errOut, want)
	}
	code, _, errOut = run(t, dir, "bench", "--simulated", "--only", "sim-wafr,groq")
	want = `tpsrace: --only: no provider named "sim-wafr" (did you mean sim-wafer?); no provider named "groq": ` +
		`--simulated was given, so the built-in SIMULATED providers race: sim-wafer, sim-lpu, sim-gpu, sim-laptop` + "\n"
	if code != 2 || errOut != want {
		t.Errorf("--simulated: exit %d, stderr:\n%q\nwant 2 and only:\n%q", code, errOut, want)
	}
	code, _, errOut = run(t, dir, "check", "--simulated", "--only", "sim-wafr")
	want = `tpsrace: --only: no provider named "sim-wafr" (did you mean sim-wafer?): ` +
		`--simulated was given, so the built-in SIMULATED providers are checked: sim-wafer, sim-lpu, sim-gpu, sim-laptop` + "\n"
	if code != 2 || errOut != want {
		t.Errorf("check --simulated: exit %d, stderr:\n%q\nwant 2 and only:\n%q", code, errOut, want)
	}
	code, _, errOut = run(t, dir, "bench", "--only", "groq,,nobody,")
	want = `tpsrace: --only: an empty name (two commas, or one at an end); no provider named "nobody": ` +
		`the providers are groq, cerebras (skipped: TPSRACE_TEST_UNSET_KEY is not set)` + "\n"
	if code != 2 || errOut != want {
		t.Errorf("empty names: exit %d, stderr:\n%q\nwant 2 and only:\n%q", code, errOut, want)
	}
}
