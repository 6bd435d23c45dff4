package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tpsrace/buildinfo"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// Record a bench against the simulator, stop the simulator, replay: the
// replayed report is the live one, byte for byte, with the network gone,
// its finish line (--finish-at) included without being given again.
func TestReplayWithTheNetworkGone(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", `max_tokens: 40
providers:
  - name: fast
    base_url: `+srv.URL()+`
    api_key: sk-should-never-be-recorded-1234
    model: "sim:ttft=10ms,tps=900,tokens=40"
    price: {input_per_mtok: 1, output_per_mtok: 2}
  - name: thinker
    base_url: `+srv.URL()+`
    model: "sim:ttft=20ms,tps=500,tokens=20,reasoning=10"
  - name: broken
    base_url: `+srv.URL()+`
    model: "sim:fault=500"
`)
	code, _, errOut := run(t, dir, "bench", "--config", cfg, "--runs", "2", "--concurrency", "2", "--finish-at", "20", "--format", "json", "--out", "live.json", "--record", "race.tpsr.gz")
	if code != 0 || !strings.Contains(errOut, "recorded race.tpsr.gz") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	srv.Close()
	os.Remove(cfg) // no config either

	for _, args := range [][]string{
		{"replay", "race.tpsr.gz", "--bench", "--format", "json", "--out", "replayed.json"},
		{"replay", "--bench", "--format=json", "--out=replayed.json", "race.tpsr.gz"},
	} {
		code, _, errOut = run(t, dir, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		// Which build recorded it, beside the report, never in it.
		if made := "tpsrace: replaying race.tpsr.gz: recorded "; !strings.Contains(errOut, made) ||
			!strings.Contains(errOut, " UTC by tpsrace "+buildinfo.Read().Short()+"\n") {
			t.Errorf("%q: stderr %q, want %q… by tpsrace %s", args, errOut, made, buildinfo.Read().Short())
		}
		live, _ := os.ReadFile(filepath.Join(dir, "live.json"))
		replayed, _ := os.ReadFile(filepath.Join(dir, "replayed.json"))
		if len(live) == 0 || string(live) != string(replayed) {
			t.Fatalf("%q: the replayed report differs from the live one:\nlive:\n%s\nreplayed:\n%s", args, live, replayed)
		}
	}

	code, out, _ := run(t, dir, "replay", "race.tpsr.gz", "--bench", "--format", "markdown")
	if code != 0 || !strings.Contains(out, "|   1 | fast     |") || !strings.Contains(out, "broken failed: 4 × 500") {
		t.Errorf("markdown replay (exit %d):\n%s", code, out)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "race.tpsr.gz"))
	if strings.Contains(string(raw), "sk-should-never") {
		t.Error("the recording holds the API key")
	}
}

func TestReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "cut.tpsr", `{"type":"header","schema":"tpsrace.race/v1","prompt":"p","max_tokens":10,"concurrency":1,"providers":[{"name":"a","kind":"openai","model":"m","base_url":"u","price":null}]}
{"type":"race","race":0,"release":"2026-01-02T03:04:05Z"}
{"type":"stream","race":0,"provider":0,"stream":0,"events":[{"at_ns":1000000,"tokens":1,"content":"hi"},{"at_ns":2000000,"tokens":1,"content":" there"}],"end_ns":3000000,"finish_reason":"stop","usage":null,"timings":null,"phases_ns":{"dns":0,"connected":0,"tls":0,"wrote_request":0,"first_byte":0},"failure":null,"retries":0,"interrupted":false,"price":null}
`)
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"replay"}, 2, "", "tpsrace: replay needs a FILE, the recording to replay (written by tpsrace bench --record FILE). Usage: tpsrace replay FILE [flags] (see: tpsrace help replay)\n"},
		{[]string{"replay", "missing.tpsr", "--bench"}, 2, "", "tpsrace: cannot read the recording missing.tpsr: no such file or directory\n"},
		{[]string{"replay", "cut.tpsr", "--bench", "--out", "/nonexistent/r.md"}, 2, "", "--out /nonexistent/r.md: cannot write it: the folder /nonexistent does not exist (the recording was not read)"},
		{[]string{"replay", "cut.tpsr", "--cast", "/nonexistent/r.cast"}, 2, "", "--cast /nonexistent/r.cast: cannot write it"},
		{[]string{"replay", "cut.tpsr", "--gif", "/nonexistent/r.gif"}, 2, "", "--gif /nonexistent/r.gif: cannot write it: the folder /nonexistent does not exist (the recording was not read)"},
		{[]string{"replay", "cut.tpsr", "--svg", "/nonexistent/r.svg"}, 2, "", "--svg /nonexistent/r.svg: cannot write it"},
		// Checked before the recording is read: a missing one is not the error.
		{[]string{"replay", "missing.tpsr", "--gif", "r.gif", "--fps", "0"}, 2, "", "--fps 0: want 1 to 20 (the dashboard draws 20 frames a second)"},
		{[]string{"replay", "missing.tpsr", "--gif", "r.gif", "--pixels", "320x200"}, 2, "", "--size 120x40 --pixels 320x200: 120x40 cells do not fit in 320x200 pixels"},
		{[]string{"replay", "missing.tpsr", "--svg", "r.svg", "--pixels", "wide"}, 2, "", `--pixels "wide": want WIDTHxHEIGHT in pixels`},
		{[]string{"replay", "cut.tpsr", "--bench", "--format", "xml"}, 2, "", `--format "xml"`},
		{[]string{"replay", "cut.tpsr", "--bench"}, 1, "TRUNCATED: the recording is broken at line 4, after 1 whole race", "cut.tpsr:line 4: the recording ends without its end line (cut short): the recording is broken here: it holds 1 whole race"},
		{[]string{"replay", "cut.tpsr", "extra", "--bench"}, 2, "", "takes one FILE"},
	} {
		code, out, errOut := run(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) || strings.Contains(out, "INTERRUPTED") {
			t.Errorf("%q: exit %d (want %d)\nstdout %s\nstderr %s\nwant %q / %q", tc.args, code, tc.code, out, errOut, tc.stdout, tc.stderr)
		}
	}
}

// A bench recording of three races cut inside the third, as `head -c`
// cuts it: replay --bench counts the two whole races only, names the cut
// one and the line, says TRUNCATED (never INTERRUPTED) and exits 1.
func TestReplayTruncatedRecording(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", `max_tokens: 30
providers:
  - {name: fast, base_url: `+srv.URL()+`, model: "sim:ttft=5ms,tps=900,tokens=30"}
  - {name: slow, base_url: `+srv.URL()+`, model: "sim:ttft=5ms,tps=600,tokens=30,chunk=3"}
`)
	if code, _, errOut := run(t, dir, "bench", "--config", cfg, "--runs", "3", "--concurrency", "2", "--format", "json", "--record", "race.tpsr"); code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "race.tpsr"))
	// The streams of the third race lie between its race line and the end line.
	third := strings.Index(string(data), `{"type":"race","race":2`)
	third += strings.IndexByte(string(data[third:]), '\n') + 1
	end := strings.Index(string(data), `{"type":"end"`)
	if third < 0 || end < third {
		t.Fatalf("no third race in the recording:\n%s", data)
	}
	for _, cut := range []int{third, third + 10, third + (end-third)/3, end - 2} {
		os.WriteFile(filepath.Join(dir, "cut.tpsr"), data[:cut], 0o644)
		line := strings.Count(string(data[:cut]), "\n") + 1
		code, out, errOut := run(t, dir, "replay", "cut.tpsr", "--bench")
		want := fmt.Sprintf("TRUNCATED: race 3 of 3 is incomplete: the recording is broken at line %d; the figures cover the 2 whole races", line)
		if code != 1 || !strings.Contains(out, want) || strings.Contains(out, "INTERRUPTED") || !strings.Contains(errOut, fmt.Sprintf("cut.tpsr:line %d: ", line)) {
			t.Errorf("cut at %d: exit %d, want 1 and %q, never INTERRUPTED:\n%s\n%s", cut, code, want, out, errOut)
		}
		code, out, _ = run(t, dir, "replay", "cut.tpsr", "--bench", "--format", "json")
		if code != 1 || !strings.Contains(out, `"runs": 2,`) || !strings.Contains(out, `"interrupted": false,`) || strings.Count(out, `"run": 2,`) > 0 {
			t.Errorf("cut at %d: exit %d, want 1 and 2 runs in the JSON:\n%s", cut, code, out)
		}
	}
}

// The cast of the shipped recording is a file asciinema itself reads.
func TestReplayCast(t *testing.T) {
	dir := t.TempDir()
	recorded, _ := filepath.Abs("../testdata/race.tpsr")
	code, _, errOut := run(t, dir, "replay", recorded, "--cast", "race.cast", "--size", "100x30", "--speed", "4")
	if code != 0 || !strings.Contains(errOut, "wrote race.cast") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, bad := range [][]string{{"--size", "100"}, {"--size", "20x5"}, {"--speed", "50"}} {
		if code, _, errOut := run(t, dir, append([]string{"replay", recorded, "--cast", "x.cast"}, bad...)...); code != 2 {
			t.Errorf("%q: exit %d (%s), want 2", bad, code, errOut)
		}
	}
	asciinema := testenv.Require(t, "asciinema")
	// asciinema 2.2 `cat` opens /dev/tty: script gives it one.
	script := testenv.Require(t, "script")
	out, err := exec.Command(script, "-qec", asciinema+" cat "+filepath.Join(dir, "race.cast"), "/dev/null").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "faster than") {
		t.Fatalf("asciinema cat: %v\n%s", err, out)
	}
}

// The referee's flags are in the recording and every replay says them as
// the live race did: replay --bench per stream and in the verdict, and the
// dashboard replay (its cast) ⚑ on the flagged lanes and under the verdict.
func TestReplayShowsTheRefereesFlags(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", `max_tokens: 60
prompt: Explain how a CPU cache works in three paragraphs.
providers:
  - name: cached
    base_url: `+srv.URL()+`
    model: "sim:ttft=10ms,tps=2000,tokens=60,cached=5"
  - name: swapped
    base_url: `+srv.URL()+`
    model: "sim:ttft=10ms,tps=500,tokens=60,served=gpt-4o-mini"
`)
	if code, _, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json", "--out", "live.json", "--record", "race.tpsr"); code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errOut)
	}
	srv.Close()
	code, out, errOut := run(t, dir, "replay", "race.tpsr", "--bench", "--format", "json")
	if live, _ := os.ReadFile(filepath.Join(dir, "live.json")); code != 0 || out != string(live) {
		t.Fatalf("replay --bench: exit %d (%s), the live report's flags not replayed:\n%s\nwant\n%s", code, errOut, out, live)
	}
	// A busy machine may add the race's own "saturated client in 1/1 runs"
	// (true, and then the dashboard's line may give it a bare ⚑): the
	// providers' flags must be said either way.
	var doc struct {
		Verdict struct {
			FlaggedText string `json:"flagged_text"`
		} `json:"verdict"`
	}
	_ = json.Unmarshal([]byte(out), &doc)
	flagged := doc.Verdict.FlaggedText
	const quiet = "swapped answered by another model in 1/1 runs, cached had cached prompts in 1/1 runs"
	for _, want := range []string{"swapped answered by another model in 1/1 runs", "cached had cached prompts in 1/1 runs"} {
		if !strings.Contains(flagged, want) {
			t.Errorf("replay --bench's flagged_text %q lacks %q", flagged, want)
		}
	}
	for _, want := range []string{`"cached_prompt"`, `"model_substituted"`} {
		if !strings.Contains(out, want) {
			t.Errorf("replay --bench lacks %s:\n%s", want, out)
		}
	}
	if code, _, errOut := run(t, dir, "replay", "race.tpsr", "--cast", "race.cast", "--size", "160x48", "--speed", "10"); code != 0 {
		t.Fatalf("replay --cast: exit %d: %s", code, errOut)
	}
	cast, _ := os.ReadFile(filepath.Join(dir, "race.cast"))
	wants := []string{"cached ⚑", "swapped ⚑"}
	if flagged == quiet {
		wants = append(wants, "⚑ "+flagged)
	}
	for _, want := range wants {
		if !strings.Contains(string(cast), want) {
			t.Errorf("the dashboard replay lacks %q", want)
		}
	}
}

// The dashboard replay of race k gets the recording's races before it, the
// history the live dashboard refereed race k over.
func TestReplayPickGivesTheRacesBefore(t *testing.T) {
	one, err := recording.Open("../testdata/race.tpsr")
	if err != nil {
		t.Fatal(err)
	}
	cfg := one.Report().Config
	var races [][][]probes.Result
	for _, fingerprint := range []string{"fp_1", "fp_2", "fp_3"} { // three races told apart
		race := make([][]probes.Result, len(one.Races[0].Results))
		for p, streams := range one.Races[0].Results {
			race[p] = slices.Clone(streams)
		}
		race[0][0].Served.Fingerprint = fingerprint
		races = append(races, race)
	}
	path := filepath.Join(t.TempDir(), "three.tpsr")
	if err := recording.WriteFile(path, recording.NewHeader(cfg, one.Header.Concurrency, time.Time{}), cfg, races, false); err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 3; k++ {
		rp, err := (&replayCmd{race: k}).pick(rec)
		if err != nil {
			t.Fatal(err)
		}
		if got := rp.Results[0][0].Served.Fingerprint; got != races[k-1][0][0].Served.Fingerprint || len(rp.Before) != k-1 {
			t.Fatalf("race %d: the race of %s after %d races, want race %d after %d", k, got, len(rp.Before), k, k-1)
		}
		for j := range rp.Before {
			if got := rp.Before[j][0][0].Served.Fingerprint; got != races[j][0][0].Served.Fingerprint {
				t.Errorf("race %d: race %d before is the one of %s", k, j+1, got)
			}
		}
	}
}
