package recording

import (
	"cmp"
	"errors"
	"math"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

// Line types: a header, then per race a race line and one stream line per
// stream, then an end line.
const (
	typeHeader = "header"
	typeRace   = "race"
	typeStream = "stream"
	typeEnd    = "end"
)

// raceLine opens race number Race.
type raceLine struct {
	Type    string    `json:"type"`
	Race    int       `json:"race"`
	Release time.Time `json:"release"`
}

// loadJSON is probes.ClientLoad; cpu null where the platform reported none.
type loadJSON struct {
	CPU        *float64 `json:"cpu"`
	GOMAXPROCS int      `json:"gomaxprocs"`
	WakeP95NS  int64    `json:"wake_p95_ns"`
	// SchedP99NS: a recording from before the wake probe carries the
	// runtime's scheduling p99 instead; read as its lateness (the nearest
	// reading it has, and a stricter one), so its sweep's bent levels and
	// its flags read as they did. Never written.
	SchedP99NS int64 `json:"sched_p99_ns,omitempty"`
}

func newLoadJSON(l *probes.ClientLoad) *loadJSON {
	if l == nil {
		return nil
	}
	out := &loadJSON{GOMAXPROCS: l.GOMAXPROCS, WakeP95NS: int64(l.WakeP95)}
	if !math.IsNaN(l.CPU) {
		out.CPU = &l.CPU
	}
	return out
}

func (l *loadJSON) load() *probes.ClientLoad {
	if l == nil {
		return nil
	}
	out := &probes.ClientLoad{CPU: math.NaN(), GOMAXPROCS: l.GOMAXPROCS, WakeP95: time.Duration(cmp.Or(l.WakeP95NS, l.SchedP99NS))}
	if l.CPU != nil {
		out.CPU = *l.CPU
	}
	return out
}

// streamLine is one stream of a race: everything probes.Result holds.
// Durations are integer nanoseconds since the race's release (monotonic).
type streamLine struct {
	Type        string `json:"type"`
	Race        int    `json:"race"`
	Provider    int    `json:"provider"` // index into the header's providers
	Stream      int    `json:"stream"`
	Unreleased  bool   `json:"unreleased,omitempty"`   // never raced (its local server could not start)
	SentNS      int64  `json:"sent_ns"`                // when the stream began its request: the start skew
	InputTokens int    `json:"input_tokens,omitempty"` // long-context: o200k tokens of the padded prompt sent
	// ConversationTokens: multi-turn after the first turn: o200k tokens of every message sent.
	ConversationTokens int           `json:"conversation_tokens,omitempty"`
	Events             []eventJSON   `json:"events"`
	ToolDeltas         []toolJSON    `json:"tool_deltas,omitempty"` // tool-call deltas; absent when the stream had none
	EndNS              int64         `json:"end_ns"`
	FinishReason       string        `json:"finish_reason"`
	Usage              *usageJSON    `json:"usage"`
	Timings            *timingsJSON  `json:"timings"`
	Served             servedJSON    `json:"served"`                // who the response says answered
	ClientLoad         *loadJSON     `json:"client_load,omitempty"` // the recording tpsrace's load during the race; absent: not measured
	PhasesNS           phasesJSON    `json:"phases_ns"`
	Failure            *failureJSON  `json:"failure"`
	Retries            int           `json:"retries"`
	Interrupted        bool          `json:"interrupted"`
	Price              *config.Price `json:"price"` // as the stream was priced (null: no price)
}

type eventJSON struct {
	AtNS      int64  `json:"at_ns"`
	Tokens    int    `json:"tokens"`
	Content   string `json:"content,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
}

// toolJSON is probes.ToolDelta; index -1 means the delta had none.
type toolJSON struct {
	AtNS      int64  `json:"at_ns"`
	Index     int    `json:"index"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// usageJSON is probes.Usage.
type usageJSON struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"` // reasoning included, corrected as probes does
	ReasoningTokens  int `json:"reasoning_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// CachedPromptTokens: absent when the provider reported no cache figure.
	CachedPromptTokens *int `json:"cached_prompt_tokens,omitempty"`
}

// timingsJSON is probes.ServerTimings (llama.cpp's own figures).
type timingsJSON struct {
	PredictedN         int     `json:"predicted_n"`
	PredictedMS        float64 `json:"predicted_ms"`
	PredictedPerSecond float64 `json:"predicted_per_second"`
	PromptN            int     `json:"prompt_n"`
	PromptMS           float64 `json:"prompt_ms"`
	PromptPerSecond    float64 `json:"prompt_per_second"`
	CacheN             int     `json:"cache_n"`
}

// servedJSON is probes.Served; each field absent when no chunk carried it.
type servedJSON struct {
	Model       string `json:"model,omitempty"`
	Fingerprint string `json:"system_fingerprint,omitempty"`
	Provider    string `json:"provider,omitempty"`
}

// phasesJSON: 0 means the phase did not happen (a reused connection has no DNS).
type phasesJSON struct {
	DNS          int64 `json:"dns"`
	Connected    int64 `json:"connected"`
	TLS          int64 `json:"tls"`
	WroteRequest int64 `json:"wrote_request"`
	FirstByte    int64 `json:"first_byte"`
}

// failureJSON is a probes.Failure field by field, so the replayed error
// reads exactly as the live one. Kind "unknown" is an error that was not a
// probes.Failure; its text is Message.
type failureJSON struct {
	Kind       string `json:"kind"`
	Status     int    `json:"status,omitempty"`
	Code       string `json:"code,omitempty"`
	Message    string `json:"message"`
	RetryAfter string `json:"retry_after,omitempty"`
	Hint       string `json:"hint,omitempty"`
}

const kindUnknown = "unknown"

type endLine struct {
	Type        string `json:"type"`
	Interrupted bool   `json:"interrupted"`
}

func newStreamLine(race, provider int, r *probes.Result, redact func(string) string) streamLine {
	l := streamLine{Type: typeStream, Race: race, Provider: provider, Stream: r.Stream, Unreleased: r.Release.IsZero(), SentNS: int64(r.Sent), InputTokens: r.InputTokens,
		ConversationTokens: r.ConversationTokens, Events: make([]eventJSON, 0, r.Events.Len()), EndNS: int64(r.End), FinishReason: r.FinishReason,
		Usage: (*usageJSON)(r.Usage), Timings: (*timingsJSON)(r.Timings), Served: servedJSON(r.Served), ClientLoad: newLoadJSON(r.Load), Retries: r.Retries, Interrupted: r.Interrupted, Price: r.Price,
		PhasesNS: phasesJSON{int64(r.Phases.DNS), int64(r.Phases.Connected), int64(r.Phases.TLS), int64(r.Phases.WroteRequest), int64(r.Phases.FirstByte)},
	}
	for e := range r.Events.Values() {
		l.Events = append(l.Events, eventJSON{AtNS: int64(e.At), Tokens: e.Tokens, Content: e.Content, Reasoning: e.Reasoning})
	}
	for _, d := range r.ToolDeltas {
		l.ToolDeltas = append(l.ToolDeltas, toolJSON{AtNS: int64(d.At), Index: d.Index, ID: d.ID, Name: d.Name, Arguments: d.Arguments})
	}
	if r.Err != nil {
		if f, ok := r.Err.(*probes.Failure); ok {
			l.Failure = &failureJSON{Kind: f.Kind, Status: f.Status, Code: redact(f.Code), Message: redact(f.Message), RetryAfter: f.RetryAfter, Hint: redact(f.Hint)}
		} else {
			l.Failure = &failureJSON{Kind: kindUnknown, Message: redact(r.Err.Error())}
		}
	}
	return l
}

func (l *streamLine) result(p Provider, release time.Time) probes.Result {
	r := probes.Result{Provider: p.Name, Model: p.Model, Stream: l.Stream, Release: release, Sent: time.Duration(l.SentNS), InputTokens: l.InputTokens,
		ConversationTokens: l.ConversationTokens, Usage: (*probes.Usage)(l.Usage), FinishReason: l.FinishReason, Timings: (*probes.ServerTimings)(l.Timings), Served: probes.Served(l.Served), Load: l.ClientLoad.load(), End: time.Duration(l.EndNS), Retries: l.Retries,
		Interrupted: l.Interrupted, Price: l.Price,
		Phases: probes.Phases{DNS: time.Duration(l.PhasesNS.DNS), Connected: time.Duration(l.PhasesNS.Connected), TLS: time.Duration(l.PhasesNS.TLS),
			WroteRequest: time.Duration(l.PhasesNS.WroteRequest), FirstByte: time.Duration(l.PhasesNS.FirstByte)},
	}
	if l.Unreleased {
		r.Release = time.Time{}
	}
	for _, e := range l.Events {
		r.Events.Append(probes.Event{At: time.Duration(e.AtNS), Tokens: e.Tokens, Content: e.Content, Reasoning: e.Reasoning})
	}
	for _, d := range l.ToolDeltas {
		r.ToolDeltas = append(r.ToolDeltas, probes.ToolDelta{At: time.Duration(d.AtNS), Index: d.Index, ID: d.ID, Name: d.Name, Arguments: d.Arguments})
	}
	if f := l.Failure; f != nil {
		if f.Kind == kindUnknown {
			r.Err = errors.New(f.Message)
		} else {
			r.Err = &probes.Failure{Kind: f.Kind, Status: f.Status, Code: f.Code, Message: f.Message, RetryAfter: f.RetryAfter, Hint: f.Hint}
		}
	}
	return r
}
