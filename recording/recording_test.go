package recording_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// canary is an API key, and urlPassword a base-URL password, that must
// never reach a recording.
const (
	canary      = "sk-canary-9d1e7f3a5c2b4e6a8f0d"
	urlPassword = "pw-canary-51c3e9"
)

// simConfig is a small race of the simulator: a fast provider with a
// price, a reasoning model, a llama.cpp-style server reporting timings, one
// that fails before its stream and one that breaks inside it.
func simConfig(t *testing.T) *config.Config {
	t.Helper()
	srv := simtest.Start(t, sim.Options{})
	url := strings.Replace(srv.URL(), "http://", "http://user:"+urlPassword+"@", 1) // credentials the recording must not keep
	p := func(name, model string, price *config.Price) config.Provider {
		return config.Provider{Name: name, Kind: config.KindOpenAI, BaseURL: url, Model: model, Price: price,
			APIKey: canary, Timeout: config.Timeouts{Connect: 2 * time.Second, FirstToken: 3 * time.Second, Stall: 2 * time.Second, Total: 5 * time.Second}.Or(config.DefaultTimeouts)}
	}
	return &config.Config{Prompt: "Explain caches.", MaxTokens: 60, Providers: []config.Provider{
		p("alpha", "sim:tps=800,ttft=20ms,tokens=50", &config.Price{InputPerMTok: 0.5, OutputPerMTok: 1.5}),
		p("thinker", "sim:tps=600,ttft=30ms,reasoning=15,tokens=40,served=thinker-2025-01-01,route=Google", nil),
		p("llama", "sim:tps=500,ttft=10ms,tokens=30,timings=1,chunk=3,cached=2", nil),
		p("down", "sim:fault=503", nil),
		p("cut", "sim:tps=500,ttft=10ms,tokens=40,fault=close,after=10", nil),
	}}
}

// race runs the config `runs` times at concurrency 2, recording to w.
func race(t *testing.T, cfg *config.Config, runs int, w *recording.Writer) benchdoc.Input {
	t.Helper()
	in := benchdoc.Input{Config: cfg, Concurrency: 2, StartedAt: time.Now()}
	clients := &probes.Clients{}
	defer clients.Close()
	r := probes.Race{Providers: cfg.Providers, Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens},
		Concurrency: 2, Retries: 1, Clients: clients}
	for range runs {
		results := r.Run(context.Background(), nil)
		if err := w.Race(results); err != nil {
			t.Fatal(err)
		}
		in.Races = append(in.Races, results)
	}
	return in
}

func benchJSON(t *testing.T, in benchdoc.Input) []byte {
	t.Helper()
	b, err := json.Marshal(benchdoc.Build(in))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A replay yields exactly the live figures: the whole bench JSON of the
// recorded races, read back, equals the live one byte for byte (started_at,
// errors and every figure included), gzipped or not.
func TestReplayEqualsLive(t *testing.T) {
	cfg := simConfig(t)
	for _, name := range []string{"race.tpsr", "race.tpsr.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			started := time.Now()
			w, err := recording.Create(path, recording.NewHeader(cfg, 2, started), cfg)
			if err != nil {
				t.Fatal(err)
			}
			live := race(t, cfg, 2, w)
			live.StartedAt = started
			if err := w.Close(false); err != nil {
				t.Fatal(err)
			}
			rec, err := recording.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Broken != nil || rec.Interrupted || len(rec.Races) != 2 {
				t.Fatalf("broken %v interrupted %v races %d, want a whole recording of 2 races", rec.Broken, rec.Interrupted, len(rec.Races))
			}
			want, got := benchJSON(t, live), benchJSON(t, rec.Report())
			if !bytes.Equal(got, want) {
				t.Fatalf("replayed bench JSON differs from the live one:\nlive:\n%s\nreplayed:\n%s", want, got)
			}
			covers(t, benchdoc.Build(live))
			raw, _ := os.ReadFile(path)
			if gz := bytes.HasPrefix(raw, []byte{0x1f, 0x8b}); gz != strings.HasSuffix(name, ".gz") {
				t.Errorf("%s gzipped = %v", name, gz)
			}
			if gz, err := gzip.NewReader(bytes.NewReader(raw)); err == nil {
				raw, _ = io.ReadAll(gz)
			}
			if !bytes.Contains(raw, []byte(`"events":[{"at_ns":`)) {
				t.Fatal("cannot read the recording's text")
			}
			if bytes.Contains(raw, []byte(canary)) || bytes.Contains(raw, []byte(urlPassword)) {
				t.Error("the recording holds the API key or the base URL's password")
			}
		})
	}
}

// covers fails unless the race had what the equality must hold for:
// reasoning, retries, server timings, costs, cached prompts, who served
// and both kinds of failure.
func covers(t *testing.T, b *benchdoc.Bench) {
	t.Helper()
	has := map[string]bool{}
	for _, p := range b.Providers {
		for _, r := range p.Streams {
			has["reasoning"] = has["reasoning"] || r.ReasoningChars > 0
			has["retries"] = has["retries"] || r.Retries > 0
			has["server_tps"] = has["server_tps"] || r.ServerTPS != nil
			has["cost"] = has["cost"] || r.CostUSD != nil
			has["cached_prompt_tokens"] = has["cached_prompt_tokens"] || r.CachedPromptTokens != nil && *r.CachedPromptTokens > 0
			has["served_provider"] = has["served_provider"] || r.Served.Provider != nil
			has["server_prompt_tps"] = has["server_prompt_tps"] || r.ServerPromptTPS != nil
			if r.ErrorKind != nil {
				has[*r.ErrorKind] = true
			}
		}
	}
	for _, want := range []string{"reasoning", "retries", "server_tps", "cost", "cached_prompt_tokens", "served_provider", "server_prompt_tps",
		probes.KindHTTP, probes.KindNetwork} {
		if !has[want] {
			t.Errorf("the live race has no %s: the test no longer covers it", want)
		}
	}
}

// recorded is a small complete recording of one race, in memory.
func recorded(t *testing.T) ([]byte, *config.Config) {
	t.Helper()
	cfg := simConfig(t)
	cfg.Providers = cfg.Providers[:2]
	var b bytes.Buffer
	w := recording.NewWriter(&b, recording.NewHeader(cfg, 2, time.Time{}), cfg, false)
	race(t, cfg, 2, w)
	if err := w.Close(true); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), cfg
}

// A file cut short, or corrupted, gives the whole races before the break,
// says where it broke, and is never taken for interrupted: only an end line
// says that.
func TestBrokenRecordings(t *testing.T) {
	data, _ := recorded(t)
	lines := strings.SplitAfter(string(data), "\n") // header, race, 4 streams, race, 4 streams, end, ""
	if len(lines) != 13 {
		t.Fatalf("%d lines, want 12 and a final newline", len(lines)-1)
	}
	for _, tc := range []struct {
		name       string
		data       string
		races      int
		cut        bool   // the break fell inside a race
		want       string // in the error
		truncation string
	}{
		{"whole", string(data), 2, false, "", ""},
		{"no end line", strings.Join(lines[:11], ""), 2, false, "line 12: the recording ends without its end line (cut short): the recording is broken here: it holds 2 whole races",
			"the recording is broken at line 12, after 2 whole races"},
		{"cut mid-line", strings.Join(lines[:8], "") + lines[8][:40], 1, true, "line 9: unexpected end of JSON input: the recording is broken here: it holds 1 whole race, and race 2 is incomplete (left out)",
			"race 2 of 2 is incomplete: the recording is broken at line 9"},
		{"garbage line", strings.Join(lines[:3], "") + "{\"type\":\"stream\",]\n" + strings.Join(lines[4:], ""), 0, true, "line 4: invalid character",
			"race 1 of 1 is incomplete: the recording is broken at line 4"},
		{"stream of an unknown provider", strings.Join(lines[:2], "") + strings.Replace(lines[2], `"provider":0`, `"provider":7`, 1), 0, true, "line 3: a stream of provider 7, but the header lists 2 providers",
			"race 1 of 1 is incomplete: the recording is broken at line 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := recording.Read(strings.NewReader(tc.data))
			if tc.want == "" {
				if err != nil || rec.Broken != nil || !rec.Interrupted {
					t.Fatalf("err %v, broken %v, interrupted %v; want a whole recording marked interrupted", err, rec.Broken, rec.Interrupted)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.want) || rec.Broken != err {
				t.Fatalf("error %v, want one containing %q, also in Broken", err, tc.want)
			}
			if rec == nil || len(rec.Races) != tc.races || (rec.Cut != nil) != tc.cut || rec.Truncation() != tc.truncation {
				t.Fatalf("%d races, cut %v, truncation %q: want %d, %v, %q", len(rec.Races), rec.Cut != nil, rec.Truncation(), tc.races, tc.cut, tc.truncation)
			}
			if tc.want != "" && rec.Interrupted {
				t.Error("a broken recording is not an interrupted one")
			}
		})
	}

	// A gzip file cut inside race 2: the first race's lines are flushed
	// whole, so the cut falls after them wherever the rest compresses to
	// (a cut at a fixed share of the file fell inside race 1 when the
	// simulated texts compressed differently).
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Join(lines[:6], "")))
	zw.Flush()
	flushed := gz.Len()
	zw.Write([]byte(strings.Join(lines[6:], "")))
	zw.Close()
	cut := gz.Bytes()[:flushed+(gz.Len()-flushed)/2]
	rec, err := recording.Read(bytes.NewReader(cut))
	var re *recording.Error
	if !errors.As(err, &re) || re.Line < 2 || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Fatalf("cut gzip: error %v, want unexpected EOF at a line", err)
	}
	if rec == nil || len(rec.Races) != 1 {
		t.Fatalf("cut gzip: got %v, want the race before the cut", rec)
	}
}

// A recording from a newer major version is refused, saying so; a file
// that is not a recording says that.
func TestRefusesWhatItCannotRead(t *testing.T) {
	data, _ := recorded(t)
	newer := strings.Replace(string(data), recording.Schema, recording.SchemaPrefix+"2", 1)
	path := filepath.Join(t.TempDir(), "new.tpsr")
	os.WriteFile(path, []byte(newer), 0o644)
	rec, err := recording.Open(path)
	if rec != nil || !errors.Is(err, recording.ErrNewer) ||
		!strings.Contains(err.Error(), path+":line 1: ") || !strings.Contains(err.Error(), "tpsrace.race/v2 and this tpsrace reads tpsrace.race/v1: update tpsrace") {
		t.Fatalf("newer: %v, %v", rec, err)
	}
	for _, bad := range []string{"", `{"schema":"tpsrace.bench/v1"}` + "\n", "not json\n"} {
		rec, err := recording.Read(strings.NewReader(bad))
		if rec != nil || err == nil || !strings.Contains(err.Error(), "line 1: ") || !strings.Contains(err.Error(), "tpsrace recording") {
			t.Errorf("%q: %v, %v", bad, rec, err)
		}
	}
}

// A recording cut inside its first line says so, at every byte past its
// schema, rather than that it is not a recording.
func TestCutInsideTheHeader(t *testing.T) {
	data, _ := recorded(t)
	header := bytes.IndexByte(data, '\n')
	for _, cut := range []int{len(`{"type":"header",`), 100, header - 1} {
		_, err := recording.Read(bytes.NewReader(data[:cut]))
		if err == nil || !strings.Contains(err.Error(), "line 1: the recording is cut inside its first line, the header ("+strconv.Itoa(cut)+" bytes") {
			t.Errorf("cut at %d of the header's %d bytes: %v", cut, header, err)
		}
	}
}

// A provider whose local server could not start never raced: its one
// stream is a plain error with no release (as the dashboard records it).
// It replays as it was, error text and null figures included.
func TestUnreleasedProviderReplays(t *testing.T) {
	cfg := simConfig(t)
	cfg.Providers = append(cfg.Providers[:1], config.Provider{Name: "local", Kind: config.KindLlamaCpp, Model: "tiny.gguf"})
	r := probes.Race{Providers: cfg.Providers[:1], Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens}}
	results := append(r.Run(context.Background(), nil), []probes.Result{{Provider: "local", Model: "tiny.gguf",
		Err: errors.New("llama-server exited before its model was loaded")}})
	live := benchdoc.Input{Config: cfg, Concurrency: 1, Races: [][][]probes.Result{results}}

	var b bytes.Buffer
	w := recording.NewWriter(&b, recording.NewHeader(cfg, 1, time.Time{}), cfg, false)
	w.Race(results)
	if err := w.Close(false); err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Races[0].Results[1][0]; !got.Release.IsZero() || got.Err == nil || got.Err.Error() != results[1][0].Err.Error() {
		t.Fatalf("the unreleased stream came back as %+v", got)
	}
	if want, got := benchJSON(t, live), benchJSON(t, rec.Report()); !bytes.Equal(got, want) {
		t.Fatalf("replayed bench JSON differs:\nlive:\n%s\nreplayed:\n%s", want, got)
	}
}

// A recording made through the simulator and cut at any byte, as `head -c`
// cuts it, counts its whole races and nothing else: the report of the cut
// file is the report of the races before the break, marked truncated (never
// interrupted), and names the race the break fell in and the line.
func TestTruncatedAtAnyByte(t *testing.T) {
	data, cfg := recorded(t)
	whole, err := recording.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// ends[k] is the offset just past race k's last stream line, and
	// starts[k] that of its race line's end: JSON decides a line without
	// its newline, so one cut there is whole.
	var starts, ends []int
	off := 0
	for line := range strings.SplitAfterSeq(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, `{"type":"race"`):
			starts = append(starts, off+len(line)-1)
		case strings.HasPrefix(line, `{"type":"stream"`):
			ends = append(ends[:len(starts)-1], off+len(line)-1)
		}
		off += len(line)
	}
	header := strings.IndexByte(string(data), '\n')
	for cut := header + 1; cut < len(data)-len(`{"type":"end","interrupted":true}`+"\n"); cut += 7 {
		rec, err := recording.Read(bytes.NewReader(data[:cut]))
		var re *recording.Error
		if !errors.As(err, &re) || rec == nil || rec.Broken != re || rec.Interrupted {
			t.Fatalf("cut at %d: %v, %v: want a broken recording, not interrupted", cut, rec, err)
		}
		wholeRaces := 0
		for _, end := range ends {
			if end <= cut {
				wholeRaces++
			}
		}
		cutRace := wholeRaces < len(starts) && starts[wholeRaces] <= cut
		line := strings.Count(string(data[:cut]), "\n") + 1
		if data[cut] == '\n' {
			line++ // the line before the cut is whole JSON
		}
		if len(rec.Races) != wholeRaces || (rec.Cut != nil) != cutRace {
			t.Fatalf("cut at %d: %d races, cut %v; want %d whole, cut %v", cut, len(rec.Races), rec.Cut != nil, wholeRaces, cutRace)
		}
		want := "the recording is broken at line " + strconv.Itoa(line) + ", after "
		if cutRace {
			n := strconv.Itoa(wholeRaces + 1)
			want = "race " + n + " of " + n + " is incomplete: the recording is broken at line " + strconv.Itoa(line)
		}
		if !strings.HasPrefix(rec.Truncation(), want) {
			t.Fatalf("cut at %d: %q, want %q", cut, rec.Truncation(), want)
		}
		if cutRace {
			for p, streams := range rec.Cut.Results {
				if len(streams) != 2 {
					t.Fatalf("cut at %d: provider %d of the cut race has %d streams, want its 2, lost ones marked", cut, p, len(streams))
				}
			}
		}
		in := rec.Report()
		wantIn := benchdoc.Input{Config: cfg, Concurrency: 2, Truncated: rec.Truncation(), StartedAt: in.StartedAt}
		for k := range wholeRaces {
			wantIn.Races = append(wantIn.Races, whole.Races[k].Results)
		}
		if got, want := benchJSON(t, in), benchJSON(t, wantIn); !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"truncated":"`)) {
			t.Fatalf("cut at %d: the report is not the whole races':\n%s\nwant\n%s", cut, got, want)
		}
	}
}
