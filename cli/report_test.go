package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tpsrace report reads history and bench files with flags anywhere, writes
// --out, and compares two files.
func TestReportCommand(t *testing.T) {
	data, _ := filepath.Abs("../report/testdata")
	dir := t.TempDir()
	eu, c1, c4 := filepath.Join(data, "history-eu-west.jsonl"), filepath.Join(data, "bench-c1.json"), filepath.Join(data, "bench-c4.json")
	code, out, errOut := run(t, dir, "report", eu, "--format", "csv", c1)
	if code != 0 || !strings.HasPrefix(out, "provider,model,probe,day,races,") || !strings.Contains(out, "\nlpu,sim:lpu,eu-west,2026-12-02,1,1,0,") {
		t.Errorf("exit %d, stderr %q, csv:\n%s", code, errOut, out)
	}
	code, _, errOut = run(t, dir, "report", "--format", "html", "--out", "r.html", eu, c1)
	page, _ := os.ReadFile(filepath.Join(dir, "r.html"))
	if code != 0 || !strings.Contains(errOut, "wrote r.html") || !strings.Contains(string(page), "<svg") {
		t.Errorf("html: exit %d, stderr %q, %d bytes", code, errOut, len(page))
	}
	// C=1 against C=4: refused, naming the difference, unless forced.
	code, out, errOut = run(t, dir, "report", "--compare", c1, c4, "--out", "c.md")
	if _, err := os.Stat(filepath.Join(dir, "c.md")); code != 2 || out != "" || err == nil ||
		!strings.Contains(errOut, "different setups (concurrency 1 vs 4)") || !strings.Contains(errOut, "--force") {
		t.Errorf("compare across setups: exit %d, --out written: %v, stderr %q", code, err == nil, errOut)
	}
	code, out, _ = run(t, dir, "report", "--compare", "--force", c1, c4)
	if code != 0 || !strings.Contains(out, "**Setups differ** (compared with --force): A C=1") ||
		!strings.Contains(out, "| gpu | sim:gpu | tok/s p50 | 126 tok/s | 105 tok/s | -21.0 tok/s (-16.7%) |") {
		t.Errorf("compare --force: exit %d:\n%s", code, out)
	}
	code, out, _ = run(t, dir, "report", "--compare", eu, c1)
	if code != 0 || !strings.HasPrefix(out, "**Setup** C=1 · max_tokens 30") {
		t.Errorf("compare in one setup: exit %d:\n%s", code, out)
	}
}

func TestWatchReportCheckFlagErrors(t *testing.T) {
	dir := t.TempDir()
	notBench := write(t, dir, "other.json", `{"schema": "something/else"}`)
	broken := write(t, dir, "broken.jsonl", "{\"schema\":\"tpsrace.bench/v1\"}\n{not json\n")
	text := write(t, dir, "notes.txt", "results of Tuesday\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"watch", "--interval", "0s"}, "--interval must be positive"},
		{[]string{"watch", "--log-format", "xml"}, `--log-format "xml"`},
		{[]string{"watch", "--metrics-addr", "127.0.0.1:-1"}, "--metrics-addr"},
		{[]string{"watch", "--probe-name", ""}, "--probe-name must not be empty"},
		{[]string{"report"}, "at least one"},
		{[]string{"report", "--format", "pdf", notBench}, `--format "pdf"`},
		{[]string{"report", "--compare", notBench}, "--compare takes two files"},
		{[]string{"report", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"report", notBench}, `other.json: document 1: schema "something/else"`},
		{[]string{"report", broken}, "broken.jsonl: document 2"},
		{[]string{"report", text}, "notes.txt: not a tpsrace bench JSON or watch history file: invalid character"},
		{[]string{"check", "extra"}, "check takes no arguments"},
	} {
		if code, _, errOut := run(t, dir, tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
