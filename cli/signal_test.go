package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM mid-race: bench cancels every stream, still writes what it
// measured (marked interrupted) and exits 130. Runs the real binary.
func TestBenchInterruptedStillWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tpsrace")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	url, requests := countingSim(t)
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: endless\n    base_url: "+url+"\n    model: \"sim:ttft=10ms,tps=200,fault=endless\"\n")
	out := filepath.Join(dir, "r.json")
	cmd := exec.Command(bin, "bench", "--config", cfg, "--format", "json", "--out", out, "--concurrency", "3")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Stop it once every stream is under way (a busy machine may take a
	// while to start the binary) and has streamed for a second.
	for deadline := time.Now().Add(30 * time.Second); requests.Load() < 3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d (%v), want 130; stderr:\n%s", code, err, stderr.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Interrupted bool `json:"interrupted"`
		Providers   []struct {
			Runs []struct {
				Interrupted  bool `json:"interrupted"`
				OutputTokens int  `json:"output_tokens"`
			} `json:"runs"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Interrupted || len(doc.Providers[0].Runs) != 3 {
		t.Fatalf("report: interrupted %v, %d runs", doc.Interrupted, len(doc.Providers[0].Runs))
	}
	for _, r := range doc.Providers[0].Runs {
		if !r.Interrupted || r.OutputTokens < 50 {
			t.Errorf("run %+v: want interrupted with the tokens streamed so far", r)
		}
	}
}
