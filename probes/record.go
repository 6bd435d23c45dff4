package probes

import (
	"time"

	"tpsrace/config"
)

// Event is one streamed data event of choice 0 that carried text, stamped
// with the monotonic time since the race was released.
type Event struct {
	At        time.Duration
	Content   string // answer text in this event
	Reasoning string // reasoning ("thinking") text in this event
	Tokens    int    // o200k tokens of Content+Reasoning
}

// ToolDelta is one entry of a streamed delta.tool_calls, stamped like an
// Event: the opening of a call (its id and name) or a fragment of its
// arguments, or both. Package metrics assembles the calls (ToolCallOf).
type ToolDelta struct {
	At        time.Duration
	Index     int    // the call's index as sent (OpenAI counts from 0, Anthropic's layer from 1); NoIndex when absent
	ID        string // the call's id, on its first delta
	Name      string // the function's name, on its first delta
	Arguments string // a fragment of the arguments' JSON text
}

// NoIndex is ToolDelta.Index of a delta sent without one (Gemini).
const NoIndex = -1

// Usage is what the provider reported, the last non-null report of the stream.
type Usage struct {
	PromptTokens     int
	CompletionTokens int // includes reasoning, corrected where the provider excludes it
	ReasoningTokens  int
	TotalTokens      int
	// CachedPromptTokens: prompt tokens the provider served from its cache
	// (prompt_tokens_details.cached_tokens, DeepSeek's
	// prompt_cache_hit_tokens); nil when it reported neither.
	CachedPromptTokens *int
}

// ServerTimings is what llama-server reports about itself in `timings`.
type ServerTimings struct {
	PredictedN         int
	PredictedMS        float64
	PredictedPerSecond float64
	PromptN            int
	PromptMS           float64
	PromptPerSecond    float64
	CacheN             int // prompt tokens reused from the server's KV cache, not evaluated
}

// Served is who the response says answered: the first value each field
// took in the stream's chunks (of every attempt), "" where none carried it. A router may serve
// another model than the one asked for (Model), a changed deployment shows
// in Fingerprint, and OpenRouter names the upstream it routed to (Provider).
type Served struct {
	Model       string // the response's "model"
	Fingerprint string // "system_fingerprint"
	Provider    string // OpenRouter's "provider"
}

// Phases are connection milestones (net/http/httptrace), since release.
// A zero field means the phase did not happen (a reused connection has no DNS).
type Phases struct {
	DNS          time.Duration // DNS answer
	Connected    time.Duration // TCP connected
	TLS          time.Duration // TLS handshake done
	WroteRequest time.Duration // request fully written
	FirstByte    time.Duration // first response byte
}

// Result is everything recorded about one stream. Metrics are computed from
// it by package metrics and nowhere else.
type Result struct {
	Provider    string
	Model       string
	Stream      int           // 0..concurrency-1
	Release     time.Time     // the instant every stream of the race was let go
	Sent        time.Duration // release to the instant this stream began its request: the start skew
	InputTokens int           // long-context: o200k tokens of the padded prompt sent; 0 otherwise
	// ConversationTokens: multi-turn, after the first turn: o200k tokens of
	// every message sent (the prompt, the earlier answers, the follow-ups);
	// 0 otherwise.
	ConversationTokens int
	Events             Events      // the text events, in order
	ToolDeltas         []ToolDelta // the tool-call deltas of choice 0, in order (none unless the answer called a tool)
	O200kTokens        int         // o200k tokens of all the events' Content, plus of all their Reasoning
	Usage              *Usage      // nil when the provider reported none
	FinishReason       string      // last non-null finish_reason of choice 0
	Timings            *ServerTimings
	Served             Served
	Phases             Phases
	End                time.Duration // release to end of stream (or failure)
	Err                error         // nil when the stream completed
	Retries            int           // requests retried before their first byte (--retries)
	Interrupted        bool          // cancelled by the user (q, ctrl+c, SIGTERM)
	Price              *config.Price
	Load               *ClientLoad // tpsrace's own load during the race, shared by its streams; nil: not measured
	Host               *Host       // in a merged race, the host that measured it; nil: one machine's race
}

// Host is the host that measured some of a merged race's streams (tpsrace
// merge), so that their send instants can be read on the race's common
// clock (metrics.StartSkewOf): its probe name, how long after the common
// instant its own release came by its own clock (Offset: a stream left
// at Offset + Sent), and that clock's discipline, Synchronised with its
// estimated error either way (ClockError). One machine's race has none:
// one clock reads every instant.
type Host struct {
	Name         string
	Offset       time.Duration
	Synchronised bool
	ClockError   time.Duration
}

// OK reports whether the stream completed without error.
func (r *Result) OK() bool { return r.Err == nil }
