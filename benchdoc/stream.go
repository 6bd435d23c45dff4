package benchdoc

import (
	"tpsrace/metrics"
	"tpsrace/probes"
)

// Stream is one stream. Pointers are null where a figure is undefined (no text
// arrived, a one-event answer has no output speed or ITL, no price, no server
// figure, no finish_reason sent). Times are in ms to the µs, speeds in tok/s
// to 0.01, costs in USD to 8 significant digits.
//
// The JSON keeps its names, which scripts read: a provider's streams are
// "runs", and a stream's race is "run" (its index among the document's
// races, which a multi-step workload's run makes several of).
type Stream struct {
	Race           int           `json:"run"`    // the race's index
	Index          int           `json:"stream"` // the stream's among its provider's in the race
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

// Percentiles3 in milliseconds.
type Percentiles3 struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
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

func newStream(run int, res *probes.Result, s metrics.Stream, promptTokens, finishAt int) Stream {
	f := s.Figures
	r := Stream{Race: run, Index: res.Stream, OK: res.OK(), Interrupted: res.Interrupted, Retries: res.Retries,
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
