// Package recording writes and reads tpsrace recordings: every race of a
// session, stream by stream and event by event, so that a race can be
// replayed (dashboard, bench report, asciicast) with no network, no keys and
// no config, and give exactly the figures of the live race. The format,
// tpsrace.race/v1, is JSON lines (gzip allowed) and is documented in
// docs/RECORDING.md.
//
//	w, err := recording.Create("race.tpsr", recording.NewHeader(cfg, concurrency, startedAt), cfg)
//	w.Race(results)            // after each race
//	w.Close(interrupted)
//
//	rec, err := recording.Open("race.tpsr") // rec holds what was read even when err != nil
//
// Example (below) runs it.
package recording

import (
	"cmp"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/buildinfo"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/timesync"
	"tpsrace/workload"
)

// Schema is the format this package writes. Readers accept any recording of
// the same major version (fields are only ever added within one) and refuse
// a newer one.
const (
	Schema       = SchemaPrefix + "1"
	SchemaPrefix = "tpsrace.race/v"
	major        = 1
)

// Extension is the file extension of a recording (".tpsr.gz" when gzipped).
const Extension = ".tpsr"

// Header is the first line: what was raced, without keys or credentials.
type Header struct {
	Type       string    `json:"type"` // "header"
	Schema     string    `json:"schema"`
	RecordedAt time.Time `json:"recorded_at"`
	Tool       string    `json:"tool"` // the tpsrace that wrote it
	// ToolVersion is which build of it (buildinfo.Read); nil in recordings
	// written before the field existed, which still load.
	ToolVersion *buildinfo.Info `json:"tool_version,omitempty"`
	StartedAt   time.Time       `json:"started_at"` // the bench report's started_at; zero: the first race's release
	Prompt      string          `json:"prompt"`
	MaxTokens   int             `json:"max_tokens"`
	Concurrency int             `json:"concurrency"`
	// Sweep: a concurrency sweep's levels (bench --sweep); each race then
	// holds its level's streams per provider, the levels' races in order.
	// Absent without a sweep.
	Sweep     []int      `json:"sweep,omitempty"`
	Simulated bool       `json:"simulated"`
	Providers []Provider `json:"providers"`
	// Workload is what was raced, with its settings (the tool a tool-call
	// race offered); absent for chat and in recordings from before it.
	Workload *workload.Workload `json:"workload,omitempty"`
	// FinishAt is the finish line the race was run to (--finish-at N), so
	// its replay ranks as it did; absent without one.
	FinishAt int `json:"finish_at,omitempty"`
	// Runs are the runs bench was asked for (--runs N), so the replay of
	// a recording it stopped says "interrupted in run 2/5" as bench did;
	// absent from the dashboard's recordings and those before it.
	Runs int `json:"runs,omitempty"`
	// Probe is where the race ran (--probe-name, by default the host
	// name); "" in recordings from before it, and in a merged race, whose
	// probes are in Probes.
	Probe string `json:"probe,omitempty"`
	// StartAt is the wall-clock instant the first race was to be released
	// at (--start-at), and Clock this machine's clock discipline then; both
	// absent without --start-at. The race line's release is when it was.
	StartAt *time.Time      `json:"start_at,omitempty"`
	Clock   *timesync.State `json:"clock,omitempty"`
	// Probes are the recordings a merged race joins (tpsrace merge), in
	// the order of their lanes.
	Probes []Probe `json:"probes,omitempty"`
}

// Probe is one host's part of a merged race: its name, when its race was
// released by its own clock, when its first request left, and that clock's discipline.
type Probe struct {
	Name    string          `json:"name"`
	Release time.Time       `json:"release"`
	SentNS  int64           `json:"sent_ns"` // its earliest request after its release
	Clock   *timesync.State `json:"clock"`
}

// Provider is one raced provider. API keys and headers (which may carry
// credentials) are never written; base_url has its credentials redacted.
type Provider struct {
	Name    string        `json:"name"`
	Kind    string        `json:"kind"`
	Model   string        `json:"model"`
	BaseURL string        `json:"base_url"`
	Price   *config.Price `json:"price"`
	SLO     *sloJSON      `json:"slo,omitempty"`   // its SLO (goodput); absent: none
	Probe   string        `json:"probe,omitempty"` // in a merged race: the probe of this lane, named provider@probe
	// Box is what a llama.cpp lane's memory roofline rests on, measured
	// when the race ran (config.Provider.Box), so that a replay shows the
	// same roofline; absent for other lanes and in recordings from before it.
	Box *config.Box `json:"box,omitempty"`
}

// Tool names the program in recordings' headers.
var Tool = "tpsrace"

// NewHeader describes cfg's race at the given concurrency. startedAt is the
// report's started_at (zero: the first race's release).
func NewHeader(cfg *config.Config, concurrency int, startedAt time.Time) Header {
	info := buildinfo.Read()
	h := Header{Type: typeHeader, Schema: Schema, RecordedAt: time.Now().UTC(), Tool: Tool, ToolVersion: &info, StartedAt: startedAt,
		Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens, Concurrency: max(concurrency, 1), Simulated: cfg.Simulated(),
		Providers: []Provider{}}
	for _, p := range cfg.Providers {
		h.Providers = append(h.Providers, Provider{Name: p.Name, Kind: p.Kind, Model: p.Model, BaseURL: p.RedactedURL(), Price: p.Price, Box: p.Box, SLO: newSLOJSON(p.SLO)})
	}
	if !cfg.Workload.Is(workload.Chat) {
		w := cfg.Workload
		h.Workload = &w
	}
	return h
}

// Recording is what a file holds. A whole file ends with its end line; a
// broken one (truncated, corrupted) is read up to the break, and only its
// whole races count.
type Recording struct {
	Header Header
	Races  []Race // the whole races, in order
	// Interrupted: the end line says the user stopped the session; the
	// races hold what was measured, and the file is whole.
	Interrupted bool
	// Broken is where the file broke; nil for a whole file.
	Broken *Error
	// Cut is the race the break fell in, nil when it fell between races:
	// the streams read before the break, and each stream it lost as a
	// failure of kind probes.KindTruncated. No figure counts it.
	Cut *Race
}

// Race is one recorded race: results[provider][stream], in the header's
// provider order.
type Race struct {
	Release time.Time
	Results [][]probes.Result
}

// Report is what the bench report needs of the recording; benchdoc.Build
// of it gives exactly the live race's report.
func (r *Recording) Report() benchdoc.Input {
	in := benchdoc.Input{Config: r.config(), Concurrency: r.Header.Concurrency, Races: r.results(),
		Interrupted: r.Interrupted, Truncated: r.Truncation(), StartedAt: r.Header.StartedAt, Clock: r.Header.Clock, Fleet: r.Header.fleet(),
		FinishAt: r.Header.FinishAt, Planned: r.Header.Runs}
	if r.Header.StartAt != nil {
		in.StartAt = *r.Header.StartAt
	}
	return in
}

// config is the race's config as far as a recording keeps it: enough for
// the report and the dashboard, never a key.
func (r *Recording) config() *config.Config {
	h := r.Header
	cfg := &config.Config{Prompt: h.Prompt, MaxTokens: h.MaxTokens}
	if h.Workload != nil {
		cfg.Workload = *h.Workload
	}
	for _, p := range h.Providers {
		cfg.Providers = append(cfg.Providers, config.Provider{Name: p.Name, Kind: p.Kind, Model: p.Model, BaseURL: p.BaseURL, Price: p.Price, Box: p.Box, SLO: p.SLO.slo()})
	}
	return cfg
}

// Made says who made the recording and when, in a line for people:
// "recorded 2026-12-03 07:51 UTC by tpsrace v1.4.0"; a recording from
// before tool_version says "by tpsrace (version not recorded)".
func (h Header) Made() string {
	by := "(version not recorded)"
	if h.ToolVersion != nil {
		by = h.ToolVersion.Short()
	}
	return "recorded " + h.RecordedAt.UTC().Format("2006-01-02 15:04 UTC") + " by " + cmp.Or(h.Tool, "tpsrace") + " " + by
}

// results are every race's results, [race][provider][stream].
func (r *Recording) results() [][][]probes.Result {
	races := make([][][]probes.Result, len(r.Races))
	for i, race := range r.Races {
		races[i] = race.Results
	}
	return races
}

// sloJSON is config.SLO: durations in ns, 0 for a bound not set.
type sloJSON struct {
	TTFTNS    int64   `json:"ttft_ns"`
	OutputTPS float64 `json:"output_tps"`
	E2ENS     int64   `json:"e2e_ns"`
}

func newSLOJSON(s config.SLO) *sloJSON {
	if !s.Set() {
		return nil
	}
	return &sloJSON{TTFTNS: int64(s.TTFT), OutputTPS: s.OutputTPS, E2ENS: int64(s.E2E)}
}

func (s *sloJSON) slo() config.SLO {
	if s == nil {
		return config.SLO{}
	}
	return config.SLO{TTFT: time.Duration(s.TTFTNS), OutputTPS: s.OutputTPS, E2E: time.Duration(s.E2ENS)}
}
