package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"tpsrace/workload"
)

// benchSchema is docs/bench.schema.json, compiled with its formats
// asserted (a started_at that is not a date-time fails).
func benchSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("docs/bench.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("bench.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("bench.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, what string, out []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%s does not follow docs/bench.schema.json: %v", what, err)
	}
}

// Every command that writes the bench document writes what the schema
// says: bench for the chat race (with an SLO, --finish-at and C > 1) and
// every workload, replay --bench of the demo, of a merged race (per lane
// and --by provider) and of a broken recording.
func TestBenchJSONFollowsTheSchema(t *testing.T) {
	t.Parallel()
	s := benchSchema(t)
	bin := tpsraceBinary(t)
	fast := []string{"--simulated", "--only", "sim-wafer,sim-lpu", "--max-tokens", "24", "--format", "json"}
	inputs := map[string][]string{workload.LongContext: {"--input-tokens", "200,400"}, workload.CachedPrefix: {"--input-tokens", "1100"}}
	for _, name := range workload.Names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"bench", "--workload", name}, fast...), inputs[name]...)
			if name == workload.Chat {
				args = append(args, "--runs", "2", "--concurrency", "2", "--finish-at", "10", "--slo-ttft", "1s")
			}
			validate(t, s, name, run(t, bin, t.TempDir(), 0, args...))
		})
	}
	t.Run("sweep", func(t *testing.T) {
		t.Parallel()
		validate(t, s, "bench --sweep", run(t, bin, t.TempDir(), 0, append([]string{"bench", "--sweep", "1,2", "--slo-ttft", "1s"}, fast...)...))
	})
	t.Run("replay", func(t *testing.T) {
		t.Parallel()
		demo, err := filepath.Abs("testdata/race.tpsr")
		if err != nil {
			t.Fatal(err)
		}
		validate(t, s, "replay --bench", run(t, bin, t.TempDir(), 0, "replay", demo, "--bench", "--format", "json"))
		raw, err := os.ReadFile(demo)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(t.TempDir(), "cut.tpsr")
		if err := os.WriteFile(cut, raw[:len(raw)*2/3], 0o644); err != nil {
			t.Fatal(err)
		}
		validate(t, s, "replay --bench of a broken recording", run(t, bin, t.TempDir(), 1, "replay", cut, "--bench", "--format", "json"))
	})
	t.Run("watch history", func(t *testing.T) {
		t.Parallel()
		validate(t, s, "a watch --history line", watchHistoryLine(t, bin))
	})
	t.Run("merge", func(t *testing.T) {
		t.Parallel()
		merged := mergedRace(t, bin)
		validate(t, s, "replay --bench of a merge", run(t, bin, t.TempDir(), 0, "replay", merged, "--bench", "--format", "json"))
		validate(t, s, "replay --bench --by provider", run(t, bin, t.TempDir(), 0, "replay", merged, "--bench", "--by", "provider", "--format", "json"))
	})
}

// mergedRace records one --start-at instant as two probes and merges them;
// the instant leaves a loaded machine 5 s to start both.
func mergedRace(t *testing.T, bin string) string {
	dir := t.TempDir()
	at := time.Now().Add(5 * time.Second).UTC().Format(time.RFC3339Nano)
	var wg sync.WaitGroup
	for _, probe := range []string{"a", "b"} {
		wg.Go(func() {
			run(t, bin, dir, 0, "bench", "--simulated", "--only", "sim-wafer", "--max-tokens", "24",
				"--start-at", at, "--probe-name", probe, "--record", probe+".tpsr")
		})
	}
	wg.Wait()
	run(t, bin, dir, 0, "merge", "a.tpsr", "b.tpsr", "--out", "m.tpsr")
	return filepath.Join(dir, "m.tpsr")
}

// watchHistoryLine runs watch until it has written its first history line,
// then stops it as a service manager would (SIGTERM: it flushes and exits 0).
func watchHistoryLine(t *testing.T, bin string) []byte {
	history := filepath.Join(t.TempDir(), "h.jsonl")
	cmd := exec.Command(bin, "watch", "--simulated", "--only", "sim-wafer", "--max-tokens", "24",
		"--metrics-addr", "127.0.0.1:0", "--interval", "1h", "--history", history)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var line []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		raw, _ := os.ReadFile(history)
		if first, _, whole := bytes.Cut(raw, []byte("\n")); whole {
			line = first
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("watch after SIGTERM: %v\n%s", err, stderr.String())
	}
	if line == nil {
		t.Fatalf("watch wrote no history line in 30s\n%s", stderr.String())
	}
	return line
}

// run runs tpsrace in dir as a user without keys would and returns its
// stdout, failing t unless it exits with code.
func run(t *testing.T, bin, dir string, code int, args ...string) []byte {
	t.Helper()
	stdout, stderr, got := runDocCommand(t, bin, dir, args)
	if got != code {
		t.Errorf("tpsrace %v: exit %d, want %d\n%s", args, got, code, stderr)
	}
	return []byte(stdout)
}

// The schema is strict where the document is closed: a renamed key fails,
// and its workloads are package workload's.
func TestBenchSchemaIsStrict(t *testing.T) {
	s := benchSchema(t)
	demo, err := filepath.Abs("testdata/race.tpsr")
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, tpsraceBinary(t), t.TempDir(), 0, "replay", demo, "--bench", "--format", "json")
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	stream := doc["providers"].([]any)[0].(map[string]any)["runs"].([]any)[0].(map[string]any)
	stream["ttft"] = stream["ttft_ms"]
	delete(stream, "ttft_ms")
	renamed, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(renamed))
	if err != nil {
		t.Fatal(err)
	}
	if s.Validate(inst) == nil {
		t.Error("a stream whose ttft_ms is renamed ttft passes the schema")
	}

	var schema struct {
		Defs struct {
			Workload struct {
				Enum []string `json:"enum"`
			} `json:"workload"`
		} `json:"$defs"`
	}
	raw, err := os.ReadFile("docs/bench.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(schema.Defs.Workload.Enum, workload.Names) {
		t.Errorf("the schema's workloads are %v, package workload's %v", schema.Defs.Workload.Enum, workload.Names)
	}
}

// The annotated example in docs/BENCH.md is a document the schema accepts,
// so it shows every key a document has.
func TestBenchExampleFollowsTheSchema(t *testing.T) {
	raw, err := os.ReadFile("docs/BENCH.md")
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(raw), "```jsonc\n")
	example, _, closed := strings.Cut(example, "```")
	if !ok || !closed {
		t.Fatal("docs/BENCH.md has no ```jsonc example")
	}
	validate(t, benchSchema(t), "docs/BENCH.md's example", regexp.MustCompile(`\s//[^\n]*`).ReplaceAll([]byte(example), nil))
}
