package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tpsrace/recording"
	"tpsrace/sim"
	"tpsrace/timesync"
	"tpsrace/tokens"
)

// arrivalSim is the simulator behind a log of when each chat request reached it.
func arrivalSim(t *testing.T) (url string, arrivals func() []time.Time) {
	t.Helper()
	tokens.Warm()
	h := sim.NewHandler(sim.Options{})
	var mu sync.Mutex
	var at []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			mu.Lock()
			at = append(at, time.Now())
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", func() []time.Time {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Time(nil), at...)
	}
}

// fakeClock is a clock discipline the test chooses.
type fakeClock timesync.State

func (c fakeClock) Read() timesync.State { return timesync.State(c) }

// useClock makes the commands read c as this machine's clock discipline.
func useClock(t *testing.T, c timesync.State) {
	t.Helper()
	was := clockReader
	clockReader = fakeClock(c)
	t.Cleanup(func() { clockReader = was })
}

// mainIn runs Main with no change of folder (paths are absolute), so
// several may run at once as separate processes would.
func mainIn(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// Three probes with the same --start-at and different names: every first
// request reaches the server within a few ms of the instant and of each
// other, and each recording names its probe, instant and clock.
func TestProbesReleaseAtTheSameInstant(t *testing.T) {
	useClock(t, timesync.State{Synchronised: true, EstError: 400 * time.Microsecond})
	url, arrivals := arrivalSim(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", `max_tokens: 40
providers:
  - name: fast
    base_url: `+url+`
    model: "sim:ttft=20ms,tps=800,tokens=40"
  - name: slow
    base_url: `+url+`
    model: "sim:ttft=60ms,tps=200,tokens=40"
`)
	start := time.Now().Add(1500 * time.Millisecond).UTC()
	probes := []string{"fra", "iad", "sin"}
	var wg sync.WaitGroup
	for _, p := range probes {
		wg.Go(func() {
			code, _, errOut := mainIn("bench", "--config", cfg, "--start-at", start.Format(time.RFC3339Nano), "--probe-name", p,
				"--record", filepath.Join(dir, p+".tpsr"), "--format", "json", "--out", filepath.Join(dir, p+".json"))
			if code != 0 {
				t.Errorf("%s: exit %d: %s", p, code, errOut)
			}
		})
	}
	wg.Wait()
	got := arrivals()
	if len(got) != 2*len(probes) {
		t.Fatalf("%d requests reached the server, want %d", len(got), 2*len(probes))
	}
	// Generous for a loaded 2-core machine: the release itself is within
	// microseconds; the rest is the scheduler and loopback.
	const tolerance = 50 * time.Millisecond
	first, last := got[0], got[0]
	for _, at := range got {
		if at.Before(first) {
			first = at
		}
		if at.After(last) {
			last = at
		}
		if d := at.Sub(start); d < 0 || d > tolerance {
			t.Errorf("a request reached the server %s after the start instant, want 0 to %s", d, tolerance)
		}
	}
	t.Logf("first requests reached the server %s to %s after the instant (spread %s)", first.Sub(start), last.Sub(start), last.Sub(first))

	for _, p := range probes {
		rec, err := recording.Open(filepath.Join(dir, p+".tpsr"))
		if err != nil {
			t.Fatal(err)
		}
		h := rec.Header
		if h.Probe != p || h.StartAt == nil || !h.StartAt.Equal(start) || h.Clock == nil || !h.Clock.Synchronised {
			t.Errorf("%s: header probe %q, start_at %v, clock %v", p, h.Probe, h.StartAt, h.Clock)
		}
		if r := rec.Races[0].Release; r.Before(start) || r.Sub(start) > tolerance {
			t.Errorf("%s: released at %s, %s after the instant", p, r, r.Sub(start))
		}
		raw, _ := os.ReadFile(filepath.Join(dir, p+".json"))
		if !bytes.Contains(raw, []byte(`"clock": {
    "synchronised": true,
    "est_error_ms": 0.4
  }`)) {
			t.Errorf("%s: the bench JSON lacks the clock:\n%s", p, raw)
		}
	}
}

// A start already past is refused before anything is sent; so is one that
// cannot be read. An unsynchronised clock is said on stderr and in the JSON.
func TestStartAtRefusalsAndUnsynchronisedClock(t *testing.T) {
	url, arrivals := arrivalSim(t)
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: fast\n    base_url: "+url+"\n    model: \"sim:tokens=5\"\n")
	for _, tc := range []struct{ at, want string }{
		{"2020-01-01T00:00:00Z", "--start-at 2020-01-01T00:00:00Z is already past (it is now "},
		{"tomorrow", `--start-at "tomorrow": want an RFC 3339 instant`},
		{"+-3s", `want a positive duration after +`},
	} {
		code, out, errOut := mainIn("bench", "--config", cfg, "--start-at", tc.at)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("--start-at %s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.at, code, out, errOut, tc.want)
		}
	}
	if n := len(arrivals()); n != 0 {
		t.Fatalf("%d requests sent by refused commands", n)
	}

	useClock(t, timesync.State{Why: "the kernel says STA_UNSYNC"})
	code, out, errOut := mainIn("bench", "--config", cfg, "--start-at", "+300ms", "--format", "json")
	if code != 0 || !strings.Contains(errOut, "WARNING: this machine's clock is NOT synchronised (the kernel says STA_UNSYNC)") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	var doc struct {
		Clock map[string]any `json:"clock"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Clock["synchronised"] != false || doc.Clock["est_error_ms"] != nil {
		t.Errorf("clock in the JSON: %v (%v)", doc.Clock, err)
	}
}
