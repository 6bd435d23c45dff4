package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A stream that failed before any event defines none of its figures: each
// is null in the JSON (never 0 or ""), and so is its provider's aggregate.
func TestFailedStreamFiguresAreNull(t *testing.T) {
	url, _ := countingSim(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: down\n    base_url: "+url+"\n    model: \"sim:fault=body-string\"\n"+
		"  - name: up\n    base_url: "+url+"\n    model: \"sim:ttft=1ms,tps=1000,tokens=7\"\n    price: {input_per_mtok: 0.59, output_per_mtok: 0.79}\n")
	code, _, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json", "--out", "r.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	var doc struct {
		Providers []struct {
			Runs    []map[string]any `json:"runs"`
			Summary map[string]any   `json:"summary"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	down, up := doc.Providers[0], doc.Providers[1]
	run := down.Runs[0]
	for _, key := range []string{"ttft_ms", "ttfa_ms", "output_tps", "finish_reason", "tokens_per_event", "itl_ms", "server_tps", "cost_usd"} {
		if v, ok := run[key]; !ok || v != nil {
			t.Errorf("failed run: %s = %v, want null", key, v)
		}
	}
	if e, _ := run["error"].(string); !strings.Contains(e, "Invalid username or password.") {
		t.Errorf("failed run: error %q", e)
	}
	for _, key := range []string{"aggregate_tps", "cost_usd", "server_tps"} {
		if v := down.Summary[key]; v != nil {
			t.Errorf("failed provider: summary %s = %v, want null", key, v)
		}
	}
	// The completed stream's figures are defined and rounded: speeds to
	// 0.01 tok/s, times to the µs, cost to 8 significant digits.
	ok := up.Runs[0]
	for key, per := range map[string]float64{"output_tps": 100, "ttft_ms": 1000, "e2e_ms": 1000, "tokens_per_event": 1000} {
		v, isNum := ok[key].(float64)
		if !isNum || math.Abs(v*per-math.Round(v*per)) > 1e-6 {
			t.Errorf("completed run: %s = %v, want a number rounded to 1/%v", key, ok[key], per)
		}
	}
	if ok["finish_reason"] != "stop" || up.Summary["aggregate_tps"] == nil {
		t.Errorf("completed run: finish_reason %v, aggregate %v", ok["finish_reason"], up.Summary["aggregate_tps"])
	}
	c, _ := ok["cost_usd"].(float64)
	mantissa, _, _ := strings.Cut(strconv.FormatFloat(c, 'e', -1, 64), "e")
	if digits := len(strings.ReplaceAll(mantissa, ".", "")); c == 0 || digits > 8 {
		t.Errorf("cost %v: want 8 significant digits at most", c)
	}
}
