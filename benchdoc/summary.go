package benchdoc

import (
	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/workload"
)

// Goodput is a provider's streams under its SLO (metrics.Summary.Goodput): the
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

// JSONSummary is the json figures over a provider's streams.
type JSONSummary struct {
	FirstMS Percentiles2 `json:"first_ms"`
	ValidMS Percentiles2 `json:"valid_ms"`
	Valid   int          `json:"valid"`
	Streams int          `json:"streams"`
}

// ToolSummary is the tool-call figures over a provider's streams
// (metrics.Summary): first and complete times over the streams that measured
// them, valid of how many streams.
type ToolSummary struct {
	FirstMS    Percentiles2 `json:"first_ms"`
	CompleteMS Percentiles2 `json:"complete_ms"`
	ArgsTPS    Percentiles2 `json:"args_tps"`
	Valid      int          `json:"valid"`
	Streams    int          `json:"streams"`
}

// Percentiles2 of a figure across runs; null when no run defined it.
//
// Why the summary keeps JSON types of its own beside package metrics'
// (issue 36 asked for the JSON from metrics types): the document is read
// back (watch's history, report.ReadRecords) into these same types, and
// its form of a distribution is p50 and p95, rounded. A metrics.Dist
// decoded from that would claim a count, a minimum and a maximum the JSON
// does not hold, which is passing for what it is not. A metrics type whose
// JSON reads back without loss writes itself instead (metrics.Roofline),
// in the units of metrics/json.go.
type Percentiles2 struct {
	P50 *float64 `json:"p50"`
	P95 *float64 `json:"p95"`
}

// Summary over a provider's streams: metrics.SummaryOf of all its streams,
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
	// (metrics.MemoryRoofline, written by its own MarshalJSON); null unless
	// defined.
	MemoryRoofline *metrics.Roofline `json:"memory_roofline"`
	TimeToNms      Percentiles2      `json:"time_to_n_ms"`
	StoppedShort   bool              `json:"stopped_short"` // --finish-at N: streams completed, none reached N
	Tokens         int               `json:"tokens"`        // per user
	O200kTokens    int               `json:"o200k_tokens"`  // per user
	TokenSource    string            `json:"token_source"`  // "usage" when every stream with tokens reported usage
	EventTokens    int               `json:"event_tokens"`  // per user, o200k counted per event: the scale of time_to_n_ms
	// Flags: every flag that touched one of the provider's runs (its
	// streams', its races', who answered changing); Evidence says in how
	// many runs and the first evidence.
	Flags    []string          `json:"flags"`
	Evidence map[string]string `json:"evidence"`
	Goodput  *Goodput          `json:"goodput"` // null without an SLO
	Feel
	ThinkingSummary
	FeelLabel *string      `json:"feel"`                // "smooth", "bursty", "one burst", "2 stalls · 1.20s" (metrics.Felt.Label); null with too few events
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

func turns(byTurn []metrics.Summary) []Turn {
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

// SizeTTFT is the TTFT of one long-context size.
type SizeTTFT struct {
	InputTokens int          `json:"input_tokens"`
	TTFTms      Percentiles2 `json:"ttft_ms"`
}

// goodput is a provider's streams under slo (metrics.Summary.Goodput); nil
// without an SLO.
func goodput(slo config.SLO, run metrics.Summary) *Goodput {
	if !run.HasGoodput {
		return nil
	}
	g := run.Goodput
	out := &Goodput{SLO: sloJSON(slo), Met: g.Met, Streams: g.Streams, Share: round(g.Share, 1000)}
	if g.HasPerSecond {
		out.PerSecond = ptr(round(g.PerSecond, 1000))
	}
	return out
}

// summary is the JSON of all, a provider's streams pooled over runs.
func summary(w workload.Workload, wr metrics.WorkloadRuns) Summary {
	all, runs := wr.All, wr.Races
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
	workloadSummary(&s, w, wr)
	return s
}

// workloadSummary adds the figures of a multi-turn, cached-prefix or
// long-context race to s.
func workloadSummary(s *Summary, w workload.Workload, wr metrics.WorkloadRuns) {
	switch {
	case w.Is(workload.MultiTurn):
		s.ConversationMS = ptr(durations(metrics.DistOf(wr.Conversations)))
		s.Turns = turns(wr.ByTurn)
	case wr.HasPrefixCache:
		s.PrefixCache = prefixCache(wr.PrefixCache)
	case w.Is(workload.LongContext):
		var prefill *float64
		if wr.All.HasPrefillTPS {
			prefill = ptr(tps(wr.All.PrefillTPS))
		}
		s.PrefillTPS = &prefill
		for _, size := range wr.BySize {
			s.TTFTByInput = append(s.TTFTByInput, SizeTTFT{size.InputTokens, durations(size.TTFT)})
		}
	}
}
