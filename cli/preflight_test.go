package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"tpsrace/sim"
	"tpsrace/testenv"
	"tpsrace/tokens"
)

// countingSim is the simulator behind a counter of the requests it got.
func countingSim(t *testing.T) (url string, requests *atomic.Int64) {
	t.Helper()
	requests = &atomic.Int64{}
	tokens.Warm() // as sim.Start does: the first stream must not wait for the vocabulary
	h := sim.NewHandler(sim.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", requests
}

func TestOutputPathIsCheckedBeforeAnyRequest(t *testing.T) {
	url, requests := countingSim(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: fast\n    base_url: "+url+"\n    model: \"sim:ttft=1ms,tps=1000,tokens=5\"\n")
	for _, out := range []string{"/nonexistent/x.json", dir} {
		code, stdout, errOut := run(t, dir, "bench", "--config", cfg, "--out", out)
		if code != 2 || !strings.Contains(errOut, out) || stdout != "" {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q: want 2 naming the path", out, code, stdout, errOut)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the simulator got %d requests before the bench refused", n)
	}
	// An existing file is checked without being changed.
	existing := write(t, dir, "old.json", "keep")
	if code, _, errOut := run(t, dir, "bench", "--config", cfg, "--out", existing, "--concurrency", "0"); code != 2 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Errorf("the check changed the file: %q", b)
	}
}

// A report that cannot be written after the race goes to stdout.
func TestReportGoesToStdoutWhenOutFails(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		testenv.Unavailable(t, "no /dev/full on this system")
	}
	url, _ := countingSim(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: fast\n    base_url: "+url+"\n    model: \"sim:ttft=1ms,tps=1000,tokens=5\"\n")
	code, stdout, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json", "--out", "/dev/full")
	if code != 1 || !strings.Contains(stdout, `"schema": "tpsrace.bench/v1"`) || !strings.Contains(errOut, "on stdout instead") {
		t.Errorf("exit %d, stderr %q, stdout %q: want the report on stdout and a note saying so", code, errOut, stdout)
	}
}

func TestConcurrencyCeilingAndCost(t *testing.T) {
	url, requests := countingSim(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "prompt: hi\nmax_tokens: 5\nproviders:\n  - name: paid\n    base_url: "+url+
		"\n    model: \"sim:ttft=1ms,tps=1000,tokens=5\"\n    price: {input_per_mtok: 1, output_per_mtok: 2}\n")
	code, _, errOut := run(t, dir, "bench", "--config", cfg, "--concurrency", "1025")
	if code != 2 || !strings.Contains(errOut, "1 to 1024") || requests.Load() != 0 {
		t.Errorf("--concurrency 1025: exit %d, %d requests, stderr %q: want 2 before any request", code, requests.Load(), errOut)
	}
	code, _, errOut = run(t, dir, "bench", "--config", cfg, "--concurrency", "65", "--runs", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// 65 streams × 2 races × (1 prompt token × $1 + 5 tokens × $2) per million.
	if want := "paid: 65 streams × 2 races may cost up to $0.0014"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
}

func TestCheckWritableLeavesNoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.json")
	if err := checkWritable(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("checkWritable left %s behind (%v)", path, err)
	}
}

// The dashboard saves in the folder it runs in: one it cannot write is
// refused before anything starts.
func TestDashboardNeedsAWritableFolder(t *testing.T) {
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(gone); err != nil {
		t.Fatal(err)
	}
	os.Remove(gone) // a folder removed under the process: nothing can be created in it, even by root
	var out, errOut strings.Builder
	if code := Main(nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "cannot write it") {
		t.Errorf("exit %d, stderr %q: want 2 saying the folder cannot be written", code, errOut.String())
	}
}
