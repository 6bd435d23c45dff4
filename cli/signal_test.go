package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"tpsrace/sim"
	"tpsrace/testenv"
	"tpsrace/tokens"
)

// SIGTERM mid-race: bench cancels every stream, still writes what it
// measured (marked interrupted, its verdict saying where it stopped, never
// confident) and exits 130. Runs the real binary.
func TestBenchInterruptedStillWrites(t *testing.T) {
	bin := testenv.Binary(t)
	dir := t.TempDir()
	url, events := eventCountingSim(t)
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: endless\n    base_url: "+url+"\n    model: \"sim:ttft=10ms,tps=200,fault=endless\"\n")
	out, rec := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.tpsr")
	cmd := exec.Command(bin, "bench", "--config", cfg, "--format", "json", "--out", out, "--record", rec, "--concurrency", "3", "--runs", "5")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Stop it once the simulator has sent every stream 100 events and each
	// is still streaming (a busy machine may take a while to start the
	// binary): a point in the race fixed by what was streamed, not by a
	// sleep.
	for deadline := time.Now().Add(60 * time.Second); !events.running(3, 100); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the simulator did not send 3 streams 100 events each in 60s (sent %v); stderr:\n%s", events.counts(), stderr.String())
		}
	}
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
		Verdict     struct {
			Confident bool   `json:"confident"`
			Text      string `json:"text"`
		} `json:"verdict"`
		Providers []struct {
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
	if v := doc.Verdict; v.Confident || !strings.HasPrefix(v.Text, "interrupted in run 1/5: ") {
		t.Errorf("verdict: confident %v, %q; want not confident, saying it was interrupted in run 1/5", v.Confident, v.Text)
	}
	// The recording's replay says where it stopped as bench did.
	if _, replayed, errOut := mainIn("replay", rec, "--bench", "--format", "json"); !strings.Contains(replayed, `"text": `+jsonString(doc.Verdict.Text)) {
		t.Errorf("the replay's verdict is not bench's %q:\n%s\n%s", doc.Verdict.Text, errOut, replayed)
	}
}

// jsonString is s as encoding/json writes it (no HTML escaping).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSpace(b.String())
}

// streamEvents counts the SSE events the simulator has written, per
// request, and which responses have ended.
type streamEvents struct {
	mu    sync.Mutex
	sent  []int
	ended []bool
}

// running reports whether at least streams requests have had n events
// each and are still streaming: a signal sent now falls inside a race.
func (e *streamEvents) running(streams, n int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	enough := 0
	for i, c := range e.sent {
		if c >= n && !e.ended[i] {
			enough++
		}
	}
	return enough >= streams
}

// started is how many requests have streamed an event.
func (e *streamEvents) started() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.sent {
		if c > 0 {
			n++
		}
	}
	return n
}

func (e *streamEvents) counts() []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.sent)
}

// eventCountingSim serves the simulator and counts what it streams.
func eventCountingSim(t *testing.T) (string, *streamEvents) {
	t.Helper()
	tokens.Warm() // as sim.Start does: the first stream must not wait for the vocabulary
	events := &streamEvents{}
	h := sim.NewHandler(sim.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		events.mu.Lock()
		i := len(events.sent)
		events.sent = append(events.sent, 0)
		events.ended = append(events.ended, false)
		events.mu.Unlock()
		h.ServeHTTP(eventCounter{w, func(n int) {
			events.mu.Lock()
			events.sent[i] += n
			events.mu.Unlock()
		}}, r)
		events.mu.Lock()
		events.ended[i] = true
		events.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", events
}

// eventCounter passes a response through, counting its "data:" lines; the
// simulator's http.ResponseController finds Flush through Unwrap.
type eventCounter struct {
	http.ResponseWriter
	add func(n int)
}

func (w eventCounter) Write(b []byte) (int, error) {
	w.add(bytes.Count(b, []byte("data:")))
	return w.ResponseWriter.Write(b)
}

func (w eventCounter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
