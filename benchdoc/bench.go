// Package benchdoc is the bench document: recorded races turned into one
// JSON document (the contract for scripts, schema tpsrace.bench/v1), its
// ranking and its verdict. Every figure comes from package metrics (RunOf,
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
	Simulated   bool       `json:"simulated"`
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

	// runs are each provider's figures per run, the verdict's input
	// (Contenders), and referee the flags on them: a document read back
	// from JSON has neither.
	runs     [][]metrics.Run
	referee  metrics.Referee
	workload workload.Workload // whose steps make a run of runs
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
	Name    string  `json:"name"`
	Model   string  `json:"model"`
	Rank    int     `json:"rank"`     // 1 is the best (metrics.Order)
	BaseURL string  `json:"base_url"` // credentials redacted
	Runs    []Run   `json:"runs"`     // one per stream: runs × concurrency
	Summary Summary `json:"summary"`
}

// Run is one stream. Pointers are null where a figure is undefined (no text
// arrived, a one-event answer has no output speed or ITL, no price, no server
// figure, no finish_reason sent). Times are in ms to the µs, speeds in tok/s
// to 0.01, costs in USD to 8 significant digits.
type Run struct {
	Run            int           `json:"run"`
	Stream         int           `json:"stream"`
	OK             bool          `json:"ok"`
	Error          *string       `json:"error"`
	ErrorKind      *string       `json:"error_kind"`
	Interrupted    bool          `json:"interrupted"`
	Retries        int           `json:"retries"`
	TTFTms         *float64      `json:"ttft_ms"`
	TTFAms         *float64      `json:"ttfa_ms"`
	E2Ems          float64       `json:"e2e_ms"`
	OutputTokens   int           `json:"output_tokens"`
	TokenSource    string        `json:"token_source"`
	O200kTokens    int           `json:"o200k_tokens"`
	PromptTokens   int           `json:"prompt_tokens"`
	OutputTPS      *float64      `json:"output_tps"`
	ContentChars   int           `json:"content_chars"`
	ReasoningChars int           `json:"reasoning_chars"`
	FinishReason   *string       `json:"finish_reason"`
	Events         int           `json:"events"`
	TokensPerEvent *float64      `json:"tokens_per_event"`
	ITLms          *Percentiles3 `json:"itl_ms"`
	ServerTPS      *float64      `json:"server_tps"`
	// ServerPromptTPS: llama.cpp's prompt (prefill) speed, timings.prompt_per_second.
	ServerPromptTPS *float64 `json:"server_prompt_tps"`
	// CachedPromptTokens: prompt tokens the provider served from its cache;
	// null when it reported no cache figure.
	CachedPromptTokens *int      `json:"cached_prompt_tokens"`
	Served             Served    `json:"served"`
	CostUSD            *float64  `json:"cost_usd"`
	PhasesMS           Phases    `json:"phases_ms"`
	TimeToNms          *float64  `json:"time_to_n_ms"`           // --finish-at N: time to N tokens; null without it or when stopped short
	StoppedShort       bool      `json:"stopped_short"`          // --finish-at N: the stream ended before N tokens
	Workload           string    `json:"workload,omitempty"`     // as the document's; absent for chat
	InputTokens        *int      `json:"input_tokens,omitempty"` // long-context, cached-prefix: the prompt's size (metrics.InputTokens)
	Cache              *string   `json:"cache,omitempty"`        // cached-prefix: "cold" (the prefix's first request) or "warm" (the same again)
	Turn               *int      `json:"turn,omitempty"`         // multi-turn: the turn, from 1
	ToolCall           *ToolCall `json:"tool_call,omitempty"`    // tool-call workload: the stream's call
	JSON               *JSONRun  `json:"json,omitempty"`         // json workload: the stream's answer
	Feel
	Thinking
	// Flags: the referee's flags on this stream (metrics.Flag*), each with
	// its evidence in Evidence; the race's own are in the document's races.
	Flags    []string          `json:"flags"`
	Evidence map[string]string `json:"evidence"`
	// SLOMissed: the SLO's bounds this stream missed (metrics.MeetsSLO;
	// [] when it met them all); null without an SLO.
	SLOMissed []string `json:"slo_missed"`
}

// Goodput is a provider's streams under its SLO (metrics.GoodputOf): the
// SLO, how many of the streams met every bound and their share, and at
// C > 1 the good streams per second of race (null at C = 1).
type Goodput struct {
	SLO       SLO      `json:"slo"`
	Met       int      `json:"met"`
	Streams   int      `json:"streams"`
	Share     float64  `json:"share"`
	PerSecond *float64 `json:"per_second"`
}

// SLO is config.SLO in the JSON's units; a bound not set is null.
type SLO struct {
	TTFTms    *float64 `json:"ttft_ms"`
	OutputTPS *float64 `json:"output_tps"`
	E2Ems     *float64 `json:"e2e_ms"`
}

func sloJSON(s config.SLO) SLO {
	var out SLO
	if s.TTFT > 0 {
		out.TTFTms = ptr(ms(s.TTFT))
	}
	if s.OutputTPS > 0 {
		out.OutputTPS = ptr(s.OutputTPS)
	}
	if s.E2E > 0 {
		out.E2Ems = ptr(ms(s.E2E))
	}
	return out
}

// Feel is how a stream felt (metrics.Felt): stalls (gaps between text
// events over 250 ms; null with fewer than two events) and the longest
// (null without one), burstiness (coefficient of variation of the gaps;
// null under two gaps), the share of the text time in visible pauses
// (null without a gap) and reader wait (null without text). Over a
// provider's streams (the summary): the most stalls any stream had and the
// longest of all, the median burstiness and reader wait.
type Feel struct {
	Stalls         *int     `json:"stalls"`
	LongestStallMS *float64 `json:"longest_stall_ms"`
	Burstiness     *float64 `json:"burstiness"`
	PausedShare    *float64 `json:"paused_share"`
	ReaderWaitMS   *float64 `json:"reader_wait_ms"`
}

func feelOf(f metrics.Felt) Feel {
	var out Feel
	if f.Gaps > 0 {
		out.Stalls = ptr(f.Stalls)
	}
	if f.Stalls > 0 {
		out.LongestStallMS = ptr(ms(f.LongestStall))
	}
	if f.HasBurstiness {
		out.Burstiness = ptr(round(f.Burstiness, 1000))
	}
	if f.HasPaused {
		out.PausedShare = ptr(round(f.Paused, 1000))
	}
	if f.HasReaderWait {
		out.ReaderWaitMS = ptr(ms(f.ReaderWait))
	}
	return out
}

// Served is who the response says answered (probes.Served); null where no
// chunk said.
type Served struct {
	Model       *string `json:"model"`              // the response's "model"
	Fingerprint *string `json:"system_fingerprint"` // "system_fingerprint"
	Provider    *string `json:"provider"`           // OpenRouter's upstream provider
}

// ToolCall is a stream's call (metrics.ToolCall): first_ms, release to the
// first tool-call delta, null without a call; complete_ms, release to the
// delta after which every call's arguments parse and validate, null when
// they never did; name and arguments, the first call's; args_tokens, o200k
// tokens of every call's arguments; args_tps their speed after the first
// fragment, null for a call sent whole; valid, and problem: why not.
type ToolCall struct {
	FirstMS    *float64 `json:"first_ms"`
	CompleteMS *float64 `json:"complete_ms"`
	Name       *string  `json:"name"`
	Arguments  *string  `json:"arguments"`
	Calls      int      `json:"calls"`
	ArgsTokens int      `json:"args_tokens"`
	ArgsTPS    *float64 `json:"args_tps"`
	Valid      bool     `json:"valid"`
	Problem    *string  `json:"problem"`
}

// JSONRun is a stream's answer under the json workload (metrics.JSONAnswer):
// first_ms, release to the first answer text; valid_ms, to the event after
// which the answer parsed and validated (null when it never did); valid and
// problem (why not); prefix_share, the share of the answer that streamed as
// a valid JSON prefix.
type JSONRun struct {
	FirstMS     *float64 `json:"first_ms"`
	ValidMS     *float64 `json:"valid_ms"`
	Valid       bool     `json:"valid"`
	Problem     *string  `json:"problem"`
	PrefixShare float64  `json:"prefix_share"`
}

// JSONSummary is the json figures over a provider's streams.
type JSONSummary struct {
	FirstMS Percentiles2 `json:"first_ms"`
	ValidMS Percentiles2 `json:"valid_ms"`
	Valid   int          `json:"valid"`
	Streams int          `json:"streams"`
}

// ToolSummary is the tool-call figures over a provider's streams
// (metrics.Run): first and complete times over the streams that measured
// them, valid of how many streams.
type ToolSummary struct {
	FirstMS    Percentiles2 `json:"first_ms"`
	CompleteMS Percentiles2 `json:"complete_ms"`
	ArgsTPS    Percentiles2 `json:"args_tps"`
	Valid      int          `json:"valid"`
	Streams    int          `json:"streams"`
}

// Percentiles3 in milliseconds.
type Percentiles3 struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

// Percentiles2 of a figure across runs; null when no run defined it.
type Percentiles2 struct {
	P50 *float64 `json:"p50"`
	P95 *float64 `json:"p95"`
}

// Phases are connection milestones since release, in ms; null when the phase
// did not happen (a reused connection has no DNS, connect or TLS).
type Phases struct {
	DNS          *float64 `json:"dns"`
	Connected    *float64 `json:"connected"`
	TLS          *float64 `json:"tls"`
	WroteRequest *float64 `json:"wrote_request"`
	FirstByte    *float64 `json:"first_byte"`
}

// Summary over a provider's streams: metrics.RunOf of all its streams,
// every run's pooled (one run: exactly that run's figures). Each figure is
// over the streams that measured it (README, "What the numbers mean"):
// TTFT over those with text, time to N over those that reached N, speed
// and E2E over completed streams. aggregate_tps is the median over runs of
// each run's metrics.AggregateTPS; cost_usd the median cost of one request
// (a request refused before any token has none); tokens and o200k_tokens
// are per user, the median over every stream.
type Summary struct {
	OK           int          `json:"ok"`
	Failed       int          `json:"failed"`
	TTFTms       Percentiles2 `json:"ttft_ms"`
	OutputTPS    Percentiles2 `json:"output_tps"`
	E2Ems        Percentiles2 `json:"e2e_ms"`
	AggregateTPS *float64     `json:"aggregate_tps"`
	CostUSD      *float64     `json:"cost_usd"`
	ServerTPS    *float64     `json:"server_tps"` // median of the server's own figure, when reported
	// ServerPromptTPS: median of the server's own prompt (prefill) speed.
	ServerPromptTPS *float64 `json:"server_prompt_tps"`
	// MemoryRoofline: server_tps against this machine's memory limit
	// (metrics.MemoryRoofline); null unless defined.
	MemoryRoofline *Roofline    `json:"memory_roofline"`
	TimeToNms      Percentiles2 `json:"time_to_n_ms"`
	StoppedShort   bool         `json:"stopped_short"` // --finish-at N: streams completed, none reached N
	Tokens         int          `json:"tokens"`        // per user
	O200kTokens    int          `json:"o200k_tokens"`  // per user
	TokenSource    string       `json:"token_source"`  // "usage" when every stream with tokens reported usage
	EventTokens    int          `json:"event_tokens"`  // per user, o200k counted per event: the scale of time_to_n_ms
	// Flags: every flag that touched one of the provider's runs (its
	// streams', its races', who answered changing); Evidence says in how
	// many runs and the first evidence.
	Flags    []string          `json:"flags"`
	Evidence map[string]string `json:"evidence"`
	Goodput  *Goodput          `json:"goodput"` // null without an SLO
	Feel
	ThinkingSummary
	FeelLabel *string      `json:"feel"`                // "smooth", "bursty", "2 stalls · 1.20s" (metrics.Felt.Label); null with too few events
	ToolCall  *ToolSummary `json:"tool_call,omitempty"` // tool-call workload
	// PrefillTPS: long-context's prefill speed estimate (metrics.PrefillTPS),
	// null when it cannot be made, absent for the other workloads (hence
	// the pointer to a pointer); TTFTByInput the TTFT p50/p95 per size.
	PrefillTPS  **float64    `json:"prefill_tps,omitempty"`
	TTFTByInput []SizeTTFT   `json:"ttft_by_input,omitempty"`
	PrefixCache *PrefixCache `json:"prefix_cache,omitempty"` // cached-prefix
	JSON        *JSONSummary `json:"json,omitempty"`         // json workload
	// ConversationMS: multi-turn's conversation time (metrics.ConversationTime,
	// what the user waited), over the runs whose every turn completed.
	ConversationMS *Percentiles2 `json:"conversation_ms,omitempty"`
	// Turns: multi-turn's figures per turn (metrics.WorkloadRuns.ByTurn),
	// each over that turn of every conversation.
	Turns []Turn `json:"turns,omitempty"`
}

// Turn is one turn of a multi-turn race over its conversations: TTFT over
// the streams with text, speed and E2E over the completed ones, and the
// median prompt size the providers reported (usage.prompt_tokens, growing
// turn by turn with the answers before; null when none reported one).
type Turn struct {
	Turn        int          `json:"turn"`
	TTFTms      Percentiles2 `json:"ttft_ms"`
	OutputTPS   Percentiles2 `json:"output_tps"`
	E2Ems       Percentiles2 `json:"e2e_ms"`
	InputTokens *float64     `json:"input_tokens"`
}

func turns(byTurn []metrics.Run) []Turn {
	var out []Turn
	for i, r := range byTurn {
		t := Turn{Turn: i + 1, TTFTms: durations(r.TTFT), OutputTPS: speeds(r.Speed), E2Ems: durations(r.E2E)}
		if r.PromptTokens.Has() {
			t.InputTokens = ptr(r.PromptTokens.P50)
		}
		out = append(out, t)
	}
	return out
}

// PrefixCache is cached-prefix's figures (metrics.PrefixCache): TTFT of the
// cold and the warm requests, the saving (1 − warm p50 ÷ cold p50; null
// without both) and the warm requests' cached prompt tokens as their
// providers reported them (p50; null when none reported a cache figure).
type PrefixCache struct {
	ColdTTFTms   Percentiles2 `json:"cold_ttft_ms"`
	WarmTTFTms   Percentiles2 `json:"warm_ttft_ms"`
	Saving       *float64     `json:"saving"`
	CachedTokens *float64     `json:"warm_cached_tokens"`
}

func prefixCache(c metrics.PrefixCache) *PrefixCache {
	j := &PrefixCache{ColdTTFTms: durations(c.Cold), WarmTTFTms: durations(c.Warm)}
	if c.HasSaving {
		j.Saving = ptr(round(c.Saving, 1000))
	}
	if c.Cached.Has() {
		j.CachedTokens = ptr(c.Cached.P50)
	}
	return j
}

// Roofline is metrics.Roofline with its inputs (config.Box): share is
// server_tps ÷ limit_tps; fits_in_cache true leaves both null, and so does
// bandwidth_measured_low (the decode beat the limit, so the bandwidth it
// rests on is wrong).
type Roofline struct {
	FitsInCache  bool     `json:"fits_in_cache"`
	BandwidthLow bool     `json:"bandwidth_measured_low"`
	LimitTPS     *float64 `json:"limit_tps"`
	Share        *float64 `json:"share"`
	config.Box
}

func roofline(r metrics.Roofline, ok bool) *Roofline {
	if !ok {
		return nil
	}
	j := &Roofline{FitsInCache: r.InCache, BandwidthLow: r.BandwidthLow, Box: r.Box}
	if !r.InCache && !r.BandwidthLow {
		j.LimitTPS, j.Share = ptr(tps(r.LimitTPS)), ptr(round(r.Share, 1e4))
	}
	return j
}

// SizeTTFT is the TTFT of one long-context size.
type SizeTTFT struct {
	InputTokens int          `json:"input_tokens"`
	TTFTms      Percentiles2 `json:"ttft_ms"`
}

// Build computes every figure of in.
func Build(in Input) *Bench {
	cfg := in.Config
	if in.StartedAt.IsZero() && len(in.Races) > 0 && len(in.Races[0]) > 0 && len(in.Races[0][0]) > 0 {
		in.StartedAt = in.Races[0][0][0].Release
	}
	b := &Bench{Schema: Schema, StartedAt: in.StartedAt.UTC(), Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens,
		Concurrency: max(in.Concurrency, 1), Runs: len(in.Races), Simulated: cfg.Simulated, Interrupted: in.Interrupted, Truncated: in.Truncated}
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
	var tool, answer *workload.Schema
	if cfg.Workload.Is(workload.ToolCall) && cfg.Workload.Tool != nil {
		tool, _ = cfg.Workload.Tool.Compile() // config checked it; a tool that does not compile has no figures
	}
	if cfg.Workload.Is(workload.JSON) && cfg.Workload.Answer != nil {
		answer, _ = cfg.Workload.Answer.Compile()
	}
	promptTokens := tokens.Count(cfg.Prompt)
	b.referee, b.workload = metrics.RefereeOf(cfg.Providers, cfg.Workload, in.Races), cfg.Workload
	b.Races = races(in.Races, b.referee)
	perRun := len(cfg.Workload.Steps())
	if perRun > 1 {
		b.RacesPerRun = perRun
	}
	var pooled []metrics.Run
	for i, p := range cfg.Providers {
		pr := Provider{Name: p.Name, Model: p.Model, BaseURL: p.RedactedURL(), Runs: []Run{}}
		var all []metrics.Stream
		races := make([][]metrics.Stream, len(in.Races))
		for run, race := range in.Races {
			if i >= len(race) {
				continue
			}
			for k, res := range race[i] {
				s := metrics.StreamOf(&res, promptTokens, in.FinishAt)
				if tool != nil {
					s.Tool = ptr(metrics.ToolCallOf(&res, tool))
				}
				if answer != nil {
					s.JSON = ptr(metrics.JSONAnswerOf(&res, answer))
				}
				races[run] = append(races[run], s)
				r := newRun(run, &res, s, promptTokens, in.FinishAt)
				r.Flags, r.Evidence = flagsJSON(b.referee.Streams[run][i][k])
				if p.SLO.Set() {
					r.SLOMissed = append([]string{}, metrics.MeetsSLO(s.Figures, p.SLO)...)
				}
				r.Workload = b.Workload
				if cfg.Workload.Is(workload.CachedPrefix) {
					r.Cache = ptr([]string{"cold", "warm"}[run%perRun])
				}
				if cfg.Workload.Is(workload.MultiTurn) {
					r.Turn = ptr(run%perRun + 1)
				}
				pr.Runs = append(pr.Runs, r)
			}
			all = append(all, races[run]...)
		}
		wr := metrics.WorkloadRunsOf(cfg.Workload, races, in.FinishAt)
		sum := wr.All
		pr.Summary = summary(sum, wr.Races)
		pr.Summary.MemoryRoofline = roofline(metrics.MemoryRoofline(sum.ServerTPS.P50, sum.ServerTPS.Has(), p.Box))
		pr.Summary.Flags, pr.Summary.Evidence = providerFlags(b.referee, cfg.Workload, i, b.WorkloadRuns())
		pr.Summary.Goodput = goodput(p.SLO, all, wr.Races, b.Concurrency)
		switch {
		case cfg.Workload.Is(workload.MultiTurn):
			pr.Summary.ConversationMS = ptr(durations(metrics.DistOf(wr.Conversations)))
			pr.Summary.Turns = turns(wr.ByTurn)
		case wr.HasPrefixCache:
			pr.Summary.PrefixCache = prefixCache(wr.PrefixCache)
		case cfg.Workload.Is(workload.LongContext):
			var prefill *float64
			if sum.HasPrefillTPS {
				prefill = ptr(tps(sum.PrefillTPS))
			}
			pr.Summary.PrefillTPS = &prefill
			for _, size := range wr.BySize {
				pr.Summary.TTFTByInput = append(pr.Summary.TTFTByInput, SizeTTFT{size.InputTokens, durations(size.TTFT)})
			}
		}
		b.Providers = append(b.Providers, pr)
		b.runs = append(b.runs, wr.Runs)
		pooled = append(pooled, wr.Ranked)
	}
	b.rank(pooled)
	var stop *metrics.Stop
	if in.Interrupted {
		stop = ptr(stopOf(in.Races, perRun, in.Planned))
	}
	b.Verdict = verdict(b, stop)
	return b
}

// WorkloadRuns is how many runs b's races make: a run of a multi-step
// workload is RacesPerRun races (the last one begun counts, cut or not).
func (b *Bench) WorkloadRuns() int {
	per := max(b.RacesPerRun, 1)
	return (b.Runs + per - 1) / per
}

// goodput is a provider's streams (all) under slo, raced in runs.
func goodput(slo config.SLO, all []metrics.Stream, runs []metrics.Run, concurrency int) *Goodput {
	figs := make([]metrics.Figures, len(all))
	for i, s := range all {
		figs[i] = s.Figures
	}
	var raceTime time.Duration
	for _, r := range runs {
		raceTime += r.End
	}
	g, ok := metrics.GoodputOf(figs, slo, raceTime, concurrency)
	if !ok {
		return nil
	}
	out := &Goodput{SLO: sloJSON(slo), Met: g.Met, Streams: g.Streams, Share: round(g.Share, 1000)}
	if g.HasPerSecond {
		out.PerSecond = ptr(round(g.PerSecond, 1000))
	}
	return out
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

// summary is the JSON of all, a provider's streams pooled over runs.
func summary(all metrics.Run, runs []metrics.Run) Summary {
	var aggregate []float64
	for _, r := range runs {
		if r.HasAggregateTPS {
			aggregate = append(aggregate, r.AggregateTPS)
		}
	}
	s := Summary{OK: all.Completed, Failed: all.Failed, TTFTms: durations(all.TTFT), E2Ems: durations(all.E2E),
		OutputTPS: speeds(all.Speed), TimeToNms: durations(all.TimeToN), StoppedShort: all.StoppedShort,
		Tokens: all.Tokens, O200kTokens: all.O200kTokens, TokenSource: all.TokenSource, EventTokens: all.EventTokens,
		Feel: feelOf(all.Felt), FeelLabel: nonEmpty(all.Felt.Label()), ThinkingSummary: thinkingSummary(all)}
	if m, ok := metrics.Median(aggregate); ok {
		s.AggregateTPS = ptr(tps(m))
	}
	if all.CostUSD.Has() {
		s.CostUSD = ptr(usd8(all.CostUSD.P50))
	}
	if all.ServerTPS.Has() {
		s.ServerTPS = ptr(tps(all.ServerTPS.P50))
	}
	if all.ServerPromptTPS.Has() {
		s.ServerPromptTPS = ptr(tps(all.ServerPromptTPS.P50))
	}
	if all.JSONStreams > 0 {
		s.JSON = &JSONSummary{FirstMS: durations(all.JSONFirst), ValidMS: durations(all.JSONValidAt), Valid: all.JSONValid, Streams: all.JSONStreams}
	}
	if all.ToolStreams > 0 {
		s.ToolCall = &ToolSummary{FirstMS: durations(all.ToolFirst), CompleteMS: durations(all.ToolComplete), ArgsTPS: speeds(all.ArgsTPS),
			Valid: all.ToolValid, Streams: all.ToolStreams}
	}
	return s
}

func toolCall(t *metrics.ToolCall) *ToolCall {
	j := &ToolCall{Calls: t.Calls, ArgsTokens: t.ArgsTokens, Valid: t.Valid}
	if t.Calls > 0 {
		j.FirstMS, j.Name, j.Arguments = ptr(ms(t.First)), ptr(t.Name), ptr(t.Arguments)
	}
	if t.HasComplete {
		j.CompleteMS = ptr(ms(t.Complete))
	}
	if t.HasArgsTPS {
		j.ArgsTPS = ptr(tps(t.ArgsTPS))
	}
	if t.Problem != "" {
		j.Problem = ptr(t.Problem)
	}
	return j
}

func newRun(run int, res *probes.Result, s metrics.Stream, promptTokens, finishAt int) Run {
	f := s.Figures
	r := Run{Run: run, Stream: res.Stream, OK: res.OK(), Interrupted: res.Interrupted, Retries: res.Retries,
		E2Ems: ms(f.E2E), OutputTokens: f.OutputTokens, TokenSource: f.TokenSource, O200kTokens: f.O200kTokens,
		PromptTokens: metrics.PromptEstimate(res, promptTokens), ContentChars: f.ContentChars, ReasoningChars: f.ReasoningChars,
		Events:   res.Events.Len(),
		PhasesMS: Phases{msIf(res.Phases.DNS), msIf(res.Phases.Connected), msIf(res.Phases.TLS), msIf(res.Phases.WroteRequest), msIf(res.Phases.FirstByte)},
	}
	if res.Usage != nil {
		r.PromptTokens = res.Usage.PromptTokens
	}
	if res.Err != nil {
		r.Error = ptr(res.Err.Error())
		kind := "unknown"
		if fl, ok := res.Err.(*probes.Failure); ok {
			kind = fl.Kind
		}
		r.ErrorKind = &kind
	}
	if res.FinishReason != "" {
		r.FinishReason = &res.FinishReason
	}
	if f.HasTokensPerEvent {
		r.TokensPerEvent = ptr(round(f.TokensPerEvent, 1000))
	}
	if f.HasITL {
		r.ITLms = &Percentiles3{ms(f.ITL.P50), ms(f.ITL.P95), ms(f.ITL.P99)}
	}
	if f.HasTTFT {
		r.TTFTms = ptr(ms(f.TTFT))
	}
	if f.HasTTFA {
		r.TTFAms = ptr(ms(f.TTFA))
	}
	if f.HasOutputTPS {
		r.OutputTPS = ptr(tps(f.OutputTPS))
	}
	if f.HasServerTPS {
		r.ServerTPS = ptr(tps(f.ServerTPS))
	}
	if f.HasServerPromptTPS {
		r.ServerPromptTPS = ptr(tps(f.ServerPromptTPS))
	}
	if f.HasCachedPromptTokens {
		r.CachedPromptTokens = ptr(f.CachedPromptTokens)
	}
	r.Feel, r.Thinking = feelOf(f.Felt), thinkingOf(f.Phases)
	r.Served = Served{nonEmpty(res.Served.Model), nonEmpty(res.Served.Fingerprint), nonEmpty(res.Served.Provider)}
	if f.HasCost {
		r.CostUSD = ptr(usd8(f.CostUSD))
	}
	finishRun(&r, s, finishAt)
	if s.Tool != nil {
		r.ToolCall = toolCall(s.Tool)
	}
	if j := s.JSON; j != nil {
		r.JSON = &JSONRun{Valid: j.Valid, PrefixShare: round(j.PrefixShare, 1000)}
		if j.HasFirst {
			r.JSON.FirstMS = ptr(ms(j.First))
		}
		if j.HasValid {
			r.JSON.ValidMS = ptr(ms(j.ValidAt))
		}
		if j.Problem != "" {
			r.JSON.Problem = ptr(j.Problem)
		}
	}
	if s.InputTokens > 0 {
		r.InputTokens = ptr(s.InputTokens)
	}
	return r
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
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 } // ms to the µs
func tps(v float64) float64      { return round(v, 100) }                    // tok/s to 0.01
func round(v, per float64) float64 {
	return math.Round(v*per) / per
}

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
