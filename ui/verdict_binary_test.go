package ui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// replayedVerdictIsBenchs: the real binary bin tells one story: a
// jittered C=4 --finish-at race recorded by `bench --record`, replayed on
// the dashboard in tmux, settles on the same verdict that `replay --bench`
// prints (and bench printed live). TestBinaryInTmux runs it.
func replayedVerdictIsBenchs(t *testing.T, bin string) {
	srv := simtest.Start(t, sim.Options{})
	yaml := "prompt: Explain caches.\nmax_tokens: 120\nproviders:\n" +
		"  - {name: quick, base_url: " + srv.URL() + ", model: \"sim:ttft=40ms,tps=600,tokens=120,jitter=0.5,seed=3\"}\n" +
		"  - {name: steady, base_url: " + srv.URL() + ", model: \"sim:ttft=20ms,tps=250,tokens=120,jitter=0.5,seed=4\"}\n" +
		"  - {name: brief, base_url: " + srv.URL() + ", model: \"sim:ttft=10ms,tps=900,tokens=30,jitter=0.5,seed=5\"}\n"
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "providers.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	verdict := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tpsrace %s: %v", strings.Join(args, " "), err)
		}
		var doc struct {
			Verdict struct{ Text string } `json:"verdict"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("tpsrace %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return doc.Verdict.Text
	}
	live := verdict("bench", "--concurrency", "4", "--finish-at", "60", "--record", "race.tpsr", "--format", "json")
	replayed := verdict("replay", "race.tpsr", "--bench", "--finish-at", "60", "--format", "json")
	// Under load the jittered streams can end within 1% ("are level"):
	// what is held is that every view says the same verdict.
	decided := func(s string) bool { return strings.Contains(s, "faster than") || strings.Contains(s, " are level ") }
	if live != replayed || !decided(live) {
		t.Fatalf("bench said %q, replay --bench %q", live, replayed)
	}

	tr := testenv.StartTerminal(t, bin, testenv.TerminalOptions{Dir: work, Width: 240, Height: 60, Args: []string{"replay", "race.tpsr", "--finish-at", "60"}})
	s := tr.WaitScreen("the settled verdict", decided)
	var line string
	for l := range strings.Lines(s) {
		if decided(l) {
			line = strings.TrimSpace(l)
		}
	}
	// The dashboard's line is the verdict, then what it adds for the
	// audience (" · stopped short of 60 tokens: brief").
	if !strings.Contains(line, replayed) {
		t.Errorf("the dashboard settled on %q; replay --bench says %q", line, replayed)
	}
	if !strings.Contains(line, "stopped short of 60 tokens: brief") {
		t.Errorf("the dashboard's verdict %q does not name brief as stopped short", line)
	}
	tr.Quit("faster than")
}
