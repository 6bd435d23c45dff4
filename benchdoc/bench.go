// Package benchdoc is the bench document: recorded races turned into one
// JSON document (the contract for scripts, schema tpsrace.bench/v1), its
// ranking and its verdict. Every figure comes from package metrics (SummaryOf,
// the one aggregation); this package only arranges them. The dashboard's
// --heats, watch's history and recording's replay build the same document;
// package report renders it (table, Markdown, CSV, HTML).
package benchdoc

import (
	"math"
	"slices"
	"strconv"
	"time"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/timesync"
	"tpsrace/tokens"
	"tpsrace/workload"
)

// Schema names the JSON layout; bump it when a field changes meaning.
const Schema = "tpsrace.bench/v1"

// Input is what was raced and what was recorded.
type Input struct {
	Config      *config.Config
	Concurrency int
	Races       [][][]probes.Result // [run][provider][stream]
	Interrupted bool                // the user stopped it; the races hold what was measured
	Planned     int                 // the runs asked for (bench --runs N), for the verdict of an interrupted bench; 0 when not known
	Truncated   string              // what a broken recording lost (recording's Truncation); Races are its whole races
	StartedAt   time.Time           // zero: the first race's release
	FinishAt    int                 // --finish-at N: rank by time to N tokens (0: by output speed)
	StartAt     time.Time           // --start-at: the wall-clock instant of the release; zero without it
	Clock       *timesync.State     // with --start-at: this machine's clock discipline
	Fleet       *Fleet              // a merged race (tpsrace merge): its hosts (Build adds the skew); nil otherwise
}

// Fleet is a merged race's hosts and how far apart they started (JSON
// "fleet"; absent for one host's race).
type Fleet struct {
	Probes []FleetProbe `json:"probes"`
	// StartSkewMS is the race's start skew (metrics.Skew: its requests on
	// every host, each read by its host's clock), the figure its races[0]
	// also carries, and StartSkewBoundMS the bound the clocks' errors put
	// on it; both null when any clock is not synchronised: unknown, not
	// invented.
	StartSkewMS      *float64 `json:"start_skew_ms"`
	StartSkewBoundMS *float64 `json:"start_skew_bound_ms"`
}

// FleetProbe is one host of a merged race: its probe name, when it
// released by its own clock, and that clock's discipline.
type FleetProbe struct {
	Name    string          `json:"name"`
	Release time.Time       `json:"release"`
	Clock   *timesync.State `json:"clock"`
}

// skewOf fills the skew figures: skew ± bound, when known.
func (f *Fleet) skewOf(s metrics.Skew, ok bool) {
	if ok && s.Known {
		f.StartSkewMS, f.StartSkewBoundMS = ptr(ms(s.Spread)), ptr(ms(s.Bound))
	}
}

// Bench is the bench document. Field names and units are the JSON contract.
type Bench struct {
	Schema      string    `json:"schema"`
	StartedAt   time.Time `json:"started_at"`
	Prompt      string    `json:"prompt"`
	MaxTokens   int       `json:"max_tokens"`
	Concurrency int       `json:"concurrency"`
	Runs        int       `json:"runs"` // races: a run of a multi-step workload is RacesPerRun of them
	// RacesPerRun: the races of one run of a multi-step workload (a
	// long-context sweep's sizes, cached-prefix's cold and warm requests,
	// multi-turn's turns), so --runs N of them is N × RacesPerRun races;
	// absent when a run is one race. Per-stream and per-race "run" fields
	// index races; verdicts and flag counts count runs (WorkloadRuns).
	RacesPerRun int        `json:"races_per_run,omitempty"`
	Simulated   bool       `json:"simulated"` // some provider is tpsrace's simulator (config.Config.Simulated); SimulatedProviders names them
	Interrupted bool       `json:"interrupted"`
	Truncated   string     `json:"truncated,omitempty"` // replay --bench of a broken recording only: what it lost; runs are its whole races
	Providers   []Provider `json:"providers"`
	FinishAt    *int       `json:"finish_at"` // --finish-at N; null: ranked by output speed
	Verdict     Verdict    `json:"verdict"`   // who is faster over the runs, and how sure (metrics.Decide)
	// StartAt and Clock: with --start-at, the instant the race was released
	// at and the clock's discipline ({"synchronised", "est_error_ms"}); absent without.
	StartAt *time.Time      `json:"start_at,omitempty"`
	Clock   *timesync.State `json:"clock,omitempty"`
	// Races: per run, the referee's view of the race as a whole.
	Races []Race `json:"races"`
	Fleet *Fleet `json:"fleet,omitempty"` // a merged race (tpsrace merge): its hosts and their start skew
	// Workload is what was raced (workload.Names); absent for chat, so a
	// chat document reads as before. Tool is the function a tool-call race
	// offered, whose schema "valid" means.
	Workload string             `json:"workload,omitempty"`
	Tool     *workload.Function `json:"tool,omitempty"`
	Answer   *workload.Function `json:"answer,omitempty"` // json: the schema asked for (in parameters)
	*Sweep                      // bench --sweep: every level, the knees (sweep.go); absent without

	// runs are each provider's figures per run, the verdict's input
	// (Contenders), and referee the flags on them: a document read back
	// from JSON has neither.
	runs     [][]metrics.Summary
	referee  metrics.Referee
	workload workload.Workload      // whose steps make a run of runs
	figures  []metrics.WorkloadRuns // each provider's, by index
}

// Race is one run's race as a whole: its start skew, tpsrace's own load
// during it (null where not measured: a recording from before, or a
// platform without process CPU time), and the referee's flags on it
// (start_skew, client_saturated) with their evidence.
type Race struct {
	Run         int               `json:"run"`
	StartSkewMS *float64          `json:"start_skew_ms"` // metrics.Skew's spread; null under two streams or when a host's clock is not synchronised
	ClientCPU   *float64          `json:"client_cpu"`    // share of GOMAXPROCS cores busy with tpsrace, 0–1
	GOMAXPROCS  *int              `json:"gomaxprocs"`
	WakeP95MS   *float64          `json:"wake_p95_ms"` // how late the client ran a read its data woke, p95 over the race (probes.ClientLoad)
	Flags       []string          `json:"flags"`
	Evidence    map[string]string `json:"evidence"`
}

// Record is one bench document as `tpsrace watch --history` stores it: one
// race per JSON line, the same fields as `bench --format json`, plus the
// probe that ran it. A bench file is one Record without a probe.
type Record struct {
	Bench
	Probe string `json:"probe,omitempty"`
}

// Provider is one provider's streams and their summary.
type Provider struct {
	Name    string   `json:"name"`
	Model   string   `json:"model"`
	Rank    int      `json:"rank"`     // 1 is the best (metrics.Order)
	BaseURL string   `json:"base_url"` // credentials redacted
	Streams []Stream `json:"runs"`     // every stream: races × concurrency
	Summary Summary  `json:"summary"`
}

// SimulatedProviders names the providers served by tpsrace's simulator
// (config.SimulatedModel), in the document's order: every one of a
// simulated race (Simulated), or the part of it a providers file pointed
// at a `tpsrace sim`.
func (b *Bench) SimulatedProviders() []string {
	var sims []string
	for _, p := range b.Providers {
		if config.SimulatedModel(p.Model) {
			sims = append(sims, p.Name)
		}
	}
	return sims
}

// Build computes every figure of in.
func Build(in Input) *Bench {
	cfg := in.Config
	if in.StartedAt.IsZero() && len(in.Races) > 0 && len(in.Races[0]) > 0 && len(in.Races[0][0]) > 0 {
		in.StartedAt = in.Races[0][0][0].Release
	}
	b := &Bench{Schema: Schema, StartedAt: in.StartedAt.UTC(), Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens,
		Concurrency: max(in.Concurrency, 1), Runs: len(in.Races), Simulated: cfg.Simulated(), Interrupted: in.Interrupted, Truncated: in.Truncated}
	if in.FinishAt > 0 {
		b.FinishAt = ptr(in.FinishAt)
	}
	if !in.StartAt.IsZero() {
		b.StartAt, b.Clock = ptr(in.StartAt.UTC()), in.Clock
	}
	if in.Fleet != nil && len(in.Races) > 0 {
		fleet := *in.Fleet
		fleet.skewOf(metrics.StartSkewOf(slices.Concat(in.Races[0]...)))
		b.Fleet = &fleet
	}
	if !cfg.Workload.Is(workload.Chat) {
		b.Workload, b.Tool, b.Answer = cfg.Workload.Name, cfg.Workload.Tool, cfg.Workload.Answer
	}
	promptTokens := tokens.Count(cfg.Prompt)
	streams := streamsOf(in, promptTokens)
	b.referee, b.workload = metrics.RefereeOfFigures(cfg.Providers, cfg.Workload, in.Races, figuresOf(streams)), cfg.Workload
	b.Races = races(in.Races, b.referee)
	perRun := len(cfg.Workload.Steps())
	if perRun > 1 {
		b.RacesPerRun = perRun
	}
	ranked := make([]metrics.Summary, len(cfg.Providers))
	for i, p := range cfg.Providers {
		pr, wr := b.provider(in, streams, promptTokens, i, p)
		b.Providers = append(b.Providers, pr)
		b.runs, b.figures = append(b.runs, wr.Runs), append(b.figures, wr)
		ranked[i] = wr.Ranked
	}
	b.rank(ranked)
	var stop *metrics.Stop
	if in.Interrupted {
		stop = ptr(stopOf(in.Races, perRun, in.Planned))
	}
	b.Verdict = verdict(b, stop)
	return b
}

// streamsOf is metrics.StreamOf of every stream of in's races,
// [run][provider][stream]: computed once, for the referee and the report.
func streamsOf(in Input, promptTokens int) [][][]metrics.Stream {
	streams := make([][][]metrics.Stream, len(in.Races))
	for run, race := range in.Races {
		streams[run] = make([][]metrics.Stream, len(race))
		for p := range race {
			for k := range race[p] {
				streams[run][p] = append(streams[run][p], metrics.StreamOf(&race[p][k], promptTokens, in.FinishAt))
			}
		}
	}
	return streams
}

// figuresOf is the figures of streams, for metrics.RefereeOfFigures.
func figuresOf(streams [][][]metrics.Stream) [][][]metrics.Figures {
	figs := make([][][]metrics.Figures, len(streams))
	for run, race := range streams {
		figs[run] = make([][]metrics.Figures, len(race))
		for p, ss := range race {
			for _, s := range ss {
				figs[run][p] = append(figs[run][p], s.Figures)
			}
		}
	}
	return figs
}

// provider is provider i's streams and summary, and its figures over the
// races (metrics.WorkloadRunsOf); streams are streamsOf(in, promptTokens).
func (b *Bench) provider(in Input, streams [][][]metrics.Stream, promptTokens, i int, p config.Provider) (Provider, metrics.WorkloadRuns) {
	w, perRun := in.Config.Workload, len(in.Config.Workload.Steps())
	tool, answer := schemas(w)
	pr := Provider{Name: p.Name, Model: p.Model, BaseURL: p.RedactedURL(), Streams: []Stream{}}
	races := make([][]metrics.Stream, len(in.Races))
	for run, race := range in.Races {
		if i >= len(race) {
			continue
		}
		for k, res := range race[i] {
			s := streams[run][i][k].JudgeSLO(p.SLO)
			if tool != nil {
				s.Tool = ptr(metrics.ToolCallOf(&res, tool))
			}
			if answer != nil {
				s.JSON = ptr(metrics.JSONAnswerOf(&res, answer))
			}
			races[run] = append(races[run], s)
			r := newStream(run, &res, s, promptTokens, in.FinishAt)
			r.Flags, r.Evidence = flagsJSON(b.referee.Streams[run][i][k])
			if s.UnderSLO {
				r.SLOMissed = append([]string{}, s.SLOMissed...)
			}
			r.Workload = b.Workload
			if w.Is(workload.CachedPrefix) {
				r.Cache = ptr([]string{"cold", "warm"}[run%perRun])
			}
			if w.Is(workload.MultiTurn) {
				r.Turn = ptr(run%perRun + 1)
			}
			pr.Streams = append(pr.Streams, r)
		}
	}
	wr := metrics.WorkloadRunsOf(w, races, in.FinishAt)
	pr.Summary = summary(w, wr)
	if r, ok := metrics.MemoryRoofline(wr.All.ServerTPS.P50, wr.All.ServerTPS.Has(), p.Box); ok {
		pr.Summary.MemoryRoofline = &r
	}
	pr.Summary.Flags, pr.Summary.Evidence = providerFlags(b.referee, w, i, b.WorkloadRuns())
	pr.Summary.Goodput = goodput(p.SLO, wr.All)
	return pr, wr
}

// schemas are the compiled function a tool-call race offers and the
// schema a json race asks for; nil under the other workloads. Config
// checked both: one that does not compile has no figures.
func schemas(w workload.Workload) (tool, answer *workload.Schema) {
	if w.Is(workload.ToolCall) && w.Tool != nil {
		tool, _ = w.Tool.Compile()
	}
	if w.Is(workload.JSON) && w.Answer != nil {
		answer, _ = w.Answer.Compile()
	}
	return tool, answer
}

// WorkloadRuns is how many runs b's races make: a run of a multi-step
// workload is RacesPerRun races (the last one begun counts, cut or not).
func (b *Bench) WorkloadRuns() int {
	per := max(b.RacesPerRun, 1)
	return (b.Runs + per - 1) / per
}

// flagsJSON is a set of flags as the JSON lists them: names in
// metrics.FlagOrder, evidence by name; empty, never null.
func flagsJSON(f metrics.Flags) ([]string, map[string]string) {
	names := f.Names()
	if names == nil {
		names = []string{}
	}
	evidence := map[string]string{}
	for _, n := range names {
		evidence[n] = f[n]
	}
	return names, evidence
}

// providerFlags are the flags on any of provider p's runs of workload w,
// as the verdict takes them (Referee.WorkloadRunFlags: every race of a
// run, cached-prefix's warm cache hit not a flaw), the evidence saying in
// how many: "3/5 runs: 1,920 of 2,006 prompt tokens …".
func providerFlags(ref metrics.Referee, w workload.Workload, p, runs int) ([]string, map[string]string) {
	count := map[string]int{}
	all := metrics.Flags{}
	for run := range runs {
		f, _ := ref.WorkloadRunFlags(w, run, p)
		for _, name := range f.Names() {
			count[name]++
			if _, ok := all[name]; !ok {
				all[name] = f[name]
			}
		}
	}
	for name := range all {
		all[name] = strconv.Itoa(count[name]) + "/" + strconv.Itoa(runs) + " runs: " + all[name]
	}
	return flagsJSON(all)
}

// races are the referee's view of each run's race.
func races(in [][][]probes.Result, ref metrics.Referee) []Race {
	out := []Race{}
	for run, race := range in {
		r := Race{Run: run}
		var load *probes.ClientLoad
		for _, streams := range race {
			for _, res := range streams {
				if load == nil {
					load = res.Load
				}
			}
		}
		if skew, ok := metrics.StartSkewOf(slices.Concat(race...)); ok && skew.Known {
			r.StartSkewMS = ptr(ms(skew.Spread))
		}
		if load != nil {
			if !math.IsNaN(load.CPU) {
				r.ClientCPU = ptr(round(load.CPU, 1000))
			}
			r.GOMAXPROCS, r.WakeP95MS = ptr(load.GOMAXPROCS), ptr(ms(load.WakeP95))
		}
		r.Flags, r.Evidence = flagsJSON(ref.Races[run])
		out = append(out, r)
	}
	return out
}

// durations and speeds are a distribution's p50 and p95 in the JSON's
// units and precision; null when no stream measured it.
func durations(d metrics.Dist[time.Duration]) Percentiles2 {
	if !d.Has() {
		return Percentiles2{}
	}
	return Percentiles2{ptr(ms(d.P50)), ptr(ms(d.P95))}
}

func speeds(d metrics.Dist[float64]) Percentiles2 {
	if !d.Has() {
		return Percentiles2{}
	}
	return Percentiles2{ptr(tps(d.P50)), ptr(tps(d.P95))}
}

// The precision of the JSON's figures: what is meaningful, without the
// float noise of 557.8996500000001.
// The JSON's units are metrics' (JSONMillis, JSONSpeed, JSONRound): one
// rule for the figures written here and those metrics types write
// themselves.
var (
	ms    = metrics.JSONMillis
	tps   = metrics.JSONSpeed
	round = metrics.JSONRound
)

// usd8 is a cost to 8 significant digits (a request costs fractions of a cent).
func usd8(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 8, 64), 64)
	return r
}

func msIf(d time.Duration) *float64 {
	if d == 0 {
		return nil
	}
	return ptr(ms(d))
}

func ptr[T any](v T) *T { return &v }

// nonEmpty is s, or nil (JSON null) for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
