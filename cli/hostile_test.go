package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hasControl reports a control character other than newline, the way a
// terminal would act on it.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f }) >= 0
}

// Text a provider sends (an error body with escape sequences, a model name a
// server echoes back) reaches the table, Markdown and CSV as text, and the
// JSON exactly as sent.
func TestHostileTextStaysText(t *testing.T) {
	url, _ := countingSim(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", `providers:
  - name: good
    base_url: `+url+`
    model: "sim:ttft=1ms,tps=1000,tokens=5"
  - name: hostile
    base_url: `+url+`
    model: "sim:fault=body-hostile"
  - name: echoed
    base_url: `+url+`
    model: "sim:x=\e]52;c;SGVsbG8=\a\e[2J"
  - name: formula
    base_url: `+url+`
    model: "sim:fault=body-formula"
  - name: "=SUM(A1:A9)"
    base_url: `+url+`
    model: "sim:ttft=1ms,tps=1000,tokens=5"
`)
	for _, format := range []string{"table", "markdown", "csv"} {
		code, out, errOut := run(t, dir, "bench", "--config", cfg, "--format", format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		if hasControl(out) || hasControl(errOut) {
			t.Errorf("%s: control characters reach the terminal:\n%q\n%q", format, out, errOut)
		}
		if !strings.Contains(out, "bad key") || !strings.Contains(out, "HYPERLINK") {
			t.Errorf("%s: the errors are not shown:\n%s", format, out)
		}
		if format != "csv" {
			continue
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+@", rune(cell[0])) {
					t.Errorf("CSV cell %q is a formula in a spreadsheet", cell)
				}
			}
		}
		if !strings.Contains(out, "\n'=SUM(A1:A9),") {
			t.Errorf("the provider name should be defused as '=SUM(A1:A9):\n%s", out)
		}
	}
	if code, _, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json", "--out", "r.json"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	var doc Doc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if e := doc.Providers[1].Runs[0].Error; e == nil || !strings.Contains(*e, "\x1b]0;PWNED\x07 \x1b[2J\u009b31m") {
		t.Errorf("JSON must keep the error exactly as sent: %q", *e)
	}
	if hasControl(string(raw)) {
		t.Errorf("the JSON file holds raw control characters (they must be \\u escapes):\n%q", raw)
	}
}

// Doc is the part of the bench JSON these tests read.
type Doc struct {
	Providers []struct {
		Name string `json:"name"`
		Runs []struct {
			Error *string `json:"error"`
		} `json:"runs"`
	} `json:"providers"`
}

// Notices on stderr quote the file: its escape sequences stay text.
func TestStderrNoticesStayText(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "providers.yaml", "providers:\n  - name: \"x\\e]0;PWNED\\a\"\n    base_url: https://example.invalid/v1\n    api_key: ${TPSRACE_TEST_UNSET_KEY}\n    model: m\n")
	code, _, errOut := run(t, dir, "bench", "--max-tokens", "5")
	if code != 2 || !strings.Contains(errOut, "no provider can race") || !strings.Contains(errOut, "(TPSRACE_TEST_UNSET_KEY is not set)") || hasControl(errOut) {
		t.Errorf("exit %d, stderr %q: want the refusal naming the provider, without control characters", code, errOut)
	}
}
