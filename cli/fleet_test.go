package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tpsrace/metrics"
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
	probes := []string{"fra", "iad", "sin"}
	// Generous for a loaded 2-core machine: the release itself is within
	// microseconds; the rest is the scheduler and loopback. Best of three:
	// another process on the machine can only add delay, never remove it.
	const tolerance = 50 * time.Millisecond
	var start time.Time
	var problem string
	for range 3 {
		start, problem = releaseProbes(t, cfg, dir, probes, arrivals, tolerance)
		if problem == "" {
			break
		}
		t.Log("retrying:", problem)
	}
	if problem != "" {
		t.Error(problem)
	}

	for _, p := range probes {
		rec, err := recording.Open(filepath.Join(dir, p+".tpsr"))
		if err != nil {
			t.Fatal(err)
		}
		h := rec.Header
		if h.Probe != p || h.StartAt == nil || !h.StartAt.Equal(start) || h.Clock == nil || !h.Clock.Synchronised {
			t.Errorf("%s: header probe %q, start_at %v, clock %v", p, h.Probe, h.StartAt, h.Clock)
		}
		if r := rec.Races[0].Release; r.Before(start) || timingAsserted && r.Sub(start) > tolerance {
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
	checkMerge(t, dir, probes)
}

// releaseProbes runs one bench per probe at once, all with the same
// --start-at, and says what is wrong with when their requests reached the server.
func releaseProbes(t *testing.T, cfg, dir string, probes []string, arrivals func() []time.Time, tolerance time.Duration) (time.Time, string) {
	before := len(arrivals())
	start := time.Now().Add(1500 * time.Millisecond).UTC()
	var wg sync.WaitGroup
	for _, p := range probes {
		wg.Go(func() {
			code, _, errOut := mainIn("bench", "--config", cfg, "--start-at", start.Format(time.RFC3339Nano), "--probe-name", p, "--warm",
				"--record", filepath.Join(dir, p+".tpsr"), "--format", "json", "--out", filepath.Join(dir, p+".json"))
			if code != 0 {
				t.Errorf("%s: exit %d: %s", p, code, errOut)
			}
		})
	}
	wg.Wait()
	got := arrivals()[before:]
	if len(got) != 2*len(probes) {
		t.Fatalf("%d requests reached the server, want %d", len(got), 2*len(probes))
	}
	first, last := got[0], got[0]
	for _, at := range got {
		if at.Before(first) {
			first = at
		}
		if at.After(last) {
			last = at
		}
	}
	t.Logf("first requests reached the server %s to %s after the instant (spread %s)", first.Sub(start), last.Sub(start), last.Sub(first))
	if first.Before(start) || timingAsserted && last.Sub(start) > tolerance {
		return start, fmt.Sprintf("requests reached the server %s to %s after the start instant, want 0 to %s", first.Sub(start), last.Sub(start), tolerance)
	}
	return start, ""
}

// benchDoc is the part of a bench document a merge must keep.
type benchDoc struct {
	Fleet *struct {
		Probes           []struct{ Name string }
		StartSkewMS      *float64 `json:"start_skew_ms"`
		StartSkewBoundMS *float64 `json:"start_skew_bound_ms"`
	}
	Providers []struct {
		Name    string
		Runs    []map[string]any
		Summary map[string]any
	}
	Races []struct{ Evidence map[string]string }
}

// skewFlag is the evidence of the start_skew flag on doc's first race, ""
// when it raised none.
func skewFlag(doc benchDoc) string {
	if len(doc.Races) == 0 {
		return ""
	}
	return doc.Races[0].Evidence[metrics.FlagStartSkew]
}

// withRaceSkew is a lane's summary with the start_skew of the race it was
// merged into (evidence: "" when that race raised none).
func withRaceSkew(summary map[string]any, evidence string) map[string]any {
	if evidence == "" {
		return summary
	}
	all, _ := summary["evidence"].(map[string]any)
	all[metrics.FlagStartSkew] = "1/1 runs: " + evidence
	flags := []any{}
	for _, name := range metrics.FlagOrder {
		if _, ok := all[name]; ok {
			flags = append(flags, name)
		}
	}
	summary["flags"] = flags
	return summary
}

func replayBench(t *testing.T, path string, args ...string) benchDoc {
	t.Helper()
	code, out, errOut := mainIn(append([]string{"replay", path, "--bench", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("replay %s: exit %d: %s", path, code, errOut)
	}
	var doc benchDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkMerge merges the probes' recordings and checks that every lane of
// the merged race has exactly the figures of its own recording, that the
// skew is bounded by the clocks, and that --by provider and report read it.
func checkMerge(t *testing.T, dir string, probes []string) {
	merged := filepath.Join(dir, "race.tpsr")
	args := []string{"merge", "--out", merged}
	for _, p := range probes {
		args = append(args, filepath.Join(dir, p+".tpsr"))
	}
	code, _, errOut := mainIn(args...)
	if code != 0 || !strings.Contains(errOut, "merged 3 probes (fra, iad, sin) into 6 lanes: start skew ") || !strings.Contains(errOut, " ± 0.8ms across 3 probes") {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	t.Log(strings.TrimSpace(errOut))
	lanes := map[string]any{}
	doc := replayBench(t, merged)
	if f := doc.Fleet; f == nil || len(f.Probes) != 3 || f.StartSkewMS == nil || f.StartSkewBoundMS == nil || *f.StartSkewBoundMS != 0.8 {
		t.Errorf("the merged race's fleet in the JSON: %+v, want 3 probes and the skew ± 0.8 ms", f)
	}
	// A lane's figures, flags and evidence are its own recording's, but for
	// start_skew, which is the race's: the merged race's requests left from
	// three hosts, so its skew is theirs together (merged.Races[0]), and
	// every lane carries that one flag with that one figure (the header's).
	_, said, _ := strings.Cut(errOut, "lanes: ")
	said, _, _ = strings.Cut(said, ";")
	if got := skewFlag(doc); got != "" && !strings.HasPrefix(got, said) {
		t.Errorf("the merged race's start_skew evidence %q does not quote merge's %q", got, said)
	}
	for _, p := range doc.Providers {
		lanes[p.Name] = []any{p.Runs, p.Summary}
	}
	for _, probe := range probes {
		for _, p := range replayBench(t, filepath.Join(dir, probe+".tpsr")).Providers {
			want, _ := json.Marshal([]any{p.Runs, withRaceSkew(p.Summary, skewFlag(doc))})
			got, _ := json.Marshal(lanes[p.Name+"@"+probe])
			if !bytes.Equal(got, want) {
				t.Errorf("lane %s@%s:\n%s\nwant its own recording's\n%s", p.Name, probe, got, want)
			}
		}
	}
	byProvider := replayBench(t, merged, "--by", "provider")
	if len(byProvider.Providers) != 2 || len(byProvider.Providers[0].Runs) != 3 || byProvider.Providers[0].Summary["aggregate_tps"] == nil {
		t.Errorf("--by provider: %+v, want 2 providers of 3 streams each with their aggregate tok/s", byProvider)
	}
	cast := filepath.Join(dir, "race.cast")
	if code, _, errOut := mainIn("replay", merged, "--cast", cast, "--size", "160x48", "--speed", "10"); code != 0 {
		t.Fatalf("replay --cast of the merged race: exit %d: %s", code, errOut)
	}
	if raw, _ := os.ReadFile(cast); !bytes.Contains(raw, []byte("fast@iad")) || !bytes.Contains(raw, []byte(strings.TrimPrefix(said, "start skew "))) {
		t.Errorf("the dashboard replay of the merged race lacks its lanes or its skew:\n%.2000s", raw)
	}
	code, out, errOut := mainIn("report", merged, "--format", "csv")
	if code != 0 || !strings.Contains(out, "fra") || !strings.Contains(out, "sin") {
		t.Errorf("report of the merged race: exit %d, %s\n%s", code, errOut, out)
	}
}

// Recordings that are not of one race are refused, saying which; `merge -`
// reads recordings concatenated with log lines, as kubectl logs prints them.
func TestMergeRefusesAndReadsStdin(t *testing.T) {
	useClock(t, timesync.State{Synchronised: true, EstError: time.Millisecond})
	dir := t.TempDir()
	// Seven races readied at once in one process: under -race on a loaded
	// 2-core machine that took more than 400 ms, and a race whose instant
	// passed while it was readied is refused.
	start := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
	later := time.Now().Add(3300 * time.Millisecond).UTC().Format(time.RFC3339Nano)
	record := func(name, at string, extra ...string) string {
		path := filepath.Join(dir, name+".tpsr")
		args := append([]string{"bench", "--simulated", "--only", "sim-wafer", "--max-tokens", "20", "--start-at", at, "--probe-name", name, "--record", path}, extra...)
		if code, _, errOut := mainIn(args...); code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, errOut) // not Fatalf: this is not the test's goroutine
		}
		return path
	}
	var a, b, c, d, e, f, g string
	var wg sync.WaitGroup
	wg.Go(func() { a = record("a", start) })
	wg.Go(func() { b = record("b", start, "--prompt", "Something else entirely.") })
	wg.Go(func() { c = record("c", later) })
	wg.Go(func() { d = record("d", start, "--max-tokens", "30") })
	wg.Go(func() { e = record("e", later) })
	wg.Go(func() { f = record("f", start, "--workload", "tool-call") })
	wg.Go(func() { g = record("g", start, "--concurrency", "2") })
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{a, b}, "raced different prompts"},
		{[]string{a, c}, "a merge joins the recordings of one --start-at"},
		{[]string{a, d}, "ran different workloads (max_tokens 20 and 30)"},
		{[]string{a, g}, "ran different workloads (concurrency 1 and 2 streams per provider)"},
		{[]string{a, a}, `two recordings from probe "a"`},
		{[]string{a, f}, "ran different workloads (chat and tool-call): a merge joins one race"},
	} {
		code, _, errOut := mainIn(append([]string{"merge", "--out", filepath.Join(dir, "m.tpsr")}, tc.files...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("merge %v: exit %d, %s; want 2 and %q", tc.files, code, errOut, tc.want)
		}
	}

	var logs bytes.Buffer
	for _, path := range []string{c, e} {
		raw, _ := os.ReadFile(path)
		logs.WriteString("no providers.yaml: racing the built-in SIMULATED providers\n")
		logs.Write(raw)
		logs.WriteString("race 1/1: 1 stream done, 0 failed, 20 tokens\n")
	}
	was := stdin
	stdin = &logs
	defer func() { stdin = was }()
	out := filepath.Join(dir, "stdin.tpsr")
	code, _, errOut := mainIn("merge", "-", "--out", out)
	if code != 0 || !strings.Contains(errOut, "stdin: 4 lines that are not recording lines") || !strings.Contains(errOut, "merged 2 probes (c, e)") {
		t.Fatalf("merge -: exit %d: %s", code, errOut)
	}
	if doc := replayBench(t, out); len(doc.Providers) != 2 || doc.Providers[0].Name != "sim-wafer@c" && doc.Providers[0].Name != "sim-wafer@e" {
		t.Errorf("merged from stdin: %+v", doc)
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
	code, out, errOut := mainIn("bench", "--config", cfg, "--start-at", "+1s", "--format", "json")
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
