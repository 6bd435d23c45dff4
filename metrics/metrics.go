// Package metrics holds every figure tpsrace shows, each defined once, as a
// pure function of what package probes recorded: a stream's figures
// (Compute), a provider's figures over its streams (SummaryOf, the one
// aggregation, with the one Median, mid-race too), a workload's figures
// over its races (WorkloadRunsOf) and their descriptions (Figure,
// Describe), the ranking and the verdict. The dashboard, `bench`,
// replays, `watch` and `report` call these functions, so they cannot
// disagree. README.md ("What the numbers mean") and docs/METRICS.md
// (reasoning's phases: reasoning.go) document the same definitions; keep
// them in step. Example shows the path
// from recorded events to a provider's figures.
//
// Words, one meaning each, in every package:
//
//   - provider: one entry of providers.yaml (config.Provider), raced by
//     name: a lane of the dashboard, a row of every table.
//   - stream: one request's streamed answer (probes.Result; Stream here);
//     a provider has C of them in a race (--concurrency C).
//   - race: every provider's streams released at one instant (probes.Race).
//   - run: what a verdict is over, a workload's steps raced in order
//     (workload.Steps): one race for chat, tool-call and json, a sweep of
//     sizes for long-context, a cold and a warm race for cached-prefix, a
//     conversation for multi-turn. `bench --runs N` races N runs.
//   - summary: a provider's figures over some of its streams (Summary,
//     SummaryOf): a race's, a run's, or every run's pooled; benchdoc's
//     Summary is its JSON.
//   - figure: one measured quantity (TTFT, output speed, time to a
//     complete call), defined here once; Figures are one stream's, Figure
//     describes a workload's for every view.
//   - lane: the dashboard's panel of one provider; live.Lane holds its
//     streams so far, live.Snapshot its figures at a moment (SummaryOf of
//     the streams so far).
//   - heat: a race of --heats, the dashboard's runs.
//   - flag: the referee's mark on a stream, a race or a provider (Flags),
//     with its evidence; the verdict says which flags could explain it.
package metrics

import (
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/tokens"
)

// Where the output token count came from.
const (
	SourceUsage    = "usage"    // the provider's usage.completion_tokens (reasoning included)
	SourceEstimate = "estimate" // o200k count of the streamed text; the provider reported none
)

// LiveWindow is the trailing window of LiveTPS.
const LiveWindow = time.Second

// Percentiles of a distribution of durations.
type Percentiles struct{ P50, P95, P99 time.Duration }

// Figures are the measured figures of one stream.
type Figures struct {
	// TTFT: release to the first event carrying content or reasoning text.
	// HasTTFT is false when no text arrived.
	TTFT    time.Duration
	HasTTFT bool
	// TTFA: release to the first event carrying answer (content) text, so a
	// reasoning model's thinking phase is TTFA − TTFT.
	TTFA    time.Duration
	HasTTFA bool
	// E2E: release to end of stream (or to the failure).
	E2E time.Duration

	// OutputTokens: usage.completion_tokens when reported, else the o200k estimate.
	OutputTokens int
	TokenSource  string
	// O200kTokens: o200k_base count of all streamed text (answer + reasoning),
	// the common scale across providers.
	O200kTokens int

	// OutputTPS (per user): the streamed tokens over the streamed window,
	// (OutputTokens − HiddenReasoningTokens − tokens of the first text event)
	// / (last text event − first text event): hidden reasoning was not
	// decoded in that window. HasOutputTPS is false when fewer than two text
	// events arrived: one event has no duration to divide by.
	OutputTPS    float64
	HasOutputTPS bool

	// ITL: gaps between consecutive text events; HasITL false with fewer than two.
	ITL    Percentiles
	HasITL bool
	// TokensPerEvent: streamed tokens (OutputTokens − HiddenReasoningTokens)
	// / text events; HasTokensPerEvent false without events.
	TokensPerEvent    float64
	HasTokensPerEvent bool

	// Completed: the stream ended without a failure; RateLimited: it was
	// answered 429.
	Completed, RateLimited bool

	ContentChars   int // Unicode code points of the answer
	ReasoningChars int // Unicode code points of the reasoning

	// CostUSD: prompt and output tokens × price; HasCost false without a
	// price, or for a request refused before any token.
	CostUSD float64
	HasCost bool

	// ServerTPS: the server's own generation speed (llama.cpp timings), when it reports one.
	ServerTPS    float64
	HasServerTPS bool
	// ServerPromptTPS: the server's own prompt (prefill) speed, llama.cpp's
	// timings.prompt_per_second, when it reports one.
	ServerPromptTPS    float64
	HasServerPromptTPS bool

	// CachedPromptTokens: prompt tokens the provider says it served from
	// its cache (CachedPrompt); HasCachedPromptTokens false when it
	// reported no cache figure at all.
	CachedPromptTokens    int
	HasCachedPromptTokens bool
	// PromptTokens: the prompt's size as the provider counted it
	// (usage.prompt_tokens); HasPromptTokens false when it reported none.
	PromptTokens    int
	HasPromptTokens bool

	// Felt: stalls, burstiness and reader wait (FeltOf), and whether the
	// stream failed.
	Felt
	// Phases: thinking and answering apart (phasesOf), hidden reasoning.
	Phases
}

// Compute returns the figures of one finished (or failed) stream.
// promptTokens is used for cost only when the provider reported no usage.
func Compute(r *probes.Result, promptTokens int) Figures {
	f := Figures{E2E: r.End, Completed: r.OK()}
	promptTokens = PromptEstimate(r, promptTokens)
	if fl, ok := r.Err.(*probes.Failure); ok && fl.Status == 429 {
		f.RateLimited = true
	}
	// One walk of the events: each decodes them all. An event's text is
	// valid UTF-8 (a decoded JSON string), so the characters of the whole
	// text are the sum of its events'.
	gaps := gapScratch.Get().(*[]time.Duration)
	felt := feltPass{gaps: slices.Grow((*gaps)[:0], r.Events.Len())}
	defer func() { *gaps = felt.gaps; gapScratch.Put(gaps) }()
	var text streamedText
	hasText := false
	for _, e := range r.Events.Decoded() {
		f.ContentChars += utf8.RuneCountInString(e.Content)
		f.ReasoningChars += utf8.RuneCountInString(e.Reasoning)
		hasText = hasText || e.Content != "" || e.Reasoning != ""
		if e.Content != "" && !f.HasTTFA {
			f.TTFA, f.HasTTFA = e.At, true
		}
		felt.add(e)
		text.add(e)
	}
	// The probe counts a stream as it arrives; a Result made elsewhere (a
	// test, a recording) is counted here. Text always has a token, so 0
	// with text means not counted.
	f.O200kTokens = r.O200kTokens
	if f.O200kTokens == 0 && hasText {
		f.O200kTokens = o200kOf(r.Events)
	}

	f.OutputTokens, f.TokenSource = f.O200kTokens, SourceEstimate
	if r.Usage != nil && r.Usage.CompletionTokens > 0 {
		f.OutputTokens, f.TokenSource = r.Usage.CompletionTokens, SourceUsage
		promptTokens = r.Usage.PromptTokens
	}

	f.Phases = phasesOf(r, &text, f.OutputTokens, f.E2E)
	streamed := f.OutputTokens - f.HiddenReasoningTokens
	if n := r.Events.Len(); n > 0 {
		first, _ := r.Events.First()
		last, _ := r.Events.Last()
		f.TTFT, f.HasTTFT = first.At, true
		f.TokensPerEvent, f.HasTokensPerEvent = float64(streamed)/float64(n), true
		f.OutputTPS, f.HasOutputTPS = OutputTPS(streamed, first, last)
		f.Felt = felt.felt() // before ITL reorders the gaps
		f.ITL, f.HasITL = ITL(felt.gaps), n >= 2
	}
	f.Felt.Failed = !r.OK()
	// A request refused before any token (a 404, a 401) has no cost: not
	// 0, since nobody knows what the provider bills for a refusal.
	if r.Price != nil && (r.Usage != nil || r.Events.Len() > 0) {
		f.CostUSD = Cost(*r.Price, promptTokens, f.OutputTokens)
		f.HasCost = true
	}
	if r.Timings != nil && r.Timings.PredictedPerSecond > 0 {
		f.ServerTPS, f.HasServerTPS = r.Timings.PredictedPerSecond, true
	}
	if r.Timings != nil && r.Timings.PromptPerSecond > 0 {
		f.ServerPromptTPS, f.HasServerPromptTPS = r.Timings.PromptPerSecond, true
	}
	f.CachedPromptTokens, f.HasCachedPromptTokens = CachedPrompt(r)
	if r.Usage != nil && r.Usage.PromptTokens > 0 {
		f.PromptTokens, f.HasPromptTokens = r.Usage.PromptTokens, true
	}
	return f
}

// gapScratch holds the gaps between a stream's events while Compute reads
// them (their percentiles reorder them; nothing keeps them): bench
// computes every stream of a race at its end, and a slice each (16 KB for
// 2,000 events) was most of the garbage that raised the process's peak
// memory after a race of 1024 streams (docs/BENCHMARKS.md, "Scale on one
// box").
var gapScratch = sync.Pool{New: func() any { return new([]time.Duration) }}

// o200kOf is the o200k count of the answer and of the reasoning of
// events, each counted whole.
func o200kOf(events probes.Events) int {
	var content, reasoning strings.Builder
	for e := range events.Values() {
		content.WriteString(e.Content)
		reasoning.WriteString(e.Reasoning)
	}
	return tokens.Count(content.String()) + tokens.Count(reasoning.String())
}

// PromptEstimate is the prompt's size for a provider that reports no
// usage: the o200k count of the padded prompt sent (long-context,
// cached-prefix: Result.InputTokens) or of a later turn's conversation
// (multi-turn: Result.ConversationTokens), else written, the o200k count
// of the prompt as written.
func PromptEstimate(r *probes.Result, written int) int {
	switch {
	case r.InputTokens > 0:
		return r.InputTokens
	case r.ConversationTokens > 0:
		return r.ConversationTokens
	}
	return written
}

// CachedPrompt is how many prompt tokens the provider says it served from
// its cache: usage's prompt_tokens_details.cached_tokens (DeepSeek's
// prompt_cache_hit_tokens), or llama.cpp's timings.cache_n, the larger when
// both came. ok is false when the stream reported neither (llama.cpp's
// timings always carry cache_n).
func CachedPrompt(r *probes.Result) (tokens int, ok bool) {
	if r.Usage != nil && r.Usage.CachedPromptTokens != nil {
		tokens, ok = *r.Usage.CachedPromptTokens, true
	}
	if r.Timings != nil {
		tokens, ok = max(tokens, r.Timings.CacheN), true
	}
	return tokens, ok
}

// OutputTPS is per-user output speed: the tokens after the first text event
// divided by the time from the first text event to the last. The first
// event's tokens are left out because their arrival starts the clock.
// Undefined over a span under MinGap: tokens that arrived together (one
// read, one burst) have no speed a client can time (FlagOneBurst).
func OutputTPS(outputTokens int, first, last probes.Event) (float64, bool) {
	span := last.At - first.At
	if span < MinGap {
		return 0, false
	}
	return float64(max(outputTokens-first.Tokens, 0)) / span.Seconds(), true
}

// ITL returns the p50/p95/p99 of the gaps between consecutive text events
// (in any order; it reorders them).
func ITL(gaps []time.Duration) Percentiles {
	if len(gaps) == 0 {
		return Percentiles{}
	}
	p50, from := percentileOf(gaps, 50, 0)
	p95, from := percentileOf(gaps, 95, from)
	p99, _ := percentileOf(gaps, 99, from)
	return Percentiles{p50, p95, p99}
}

// Percentile of sorted values, interpolating linearly between the two
// nearest ranks (the same rule as numpy's default), so p50 of an even count
// is the mean of the middle two.
func Percentile[T ~int64 | ~float64](sorted []T, p float64) T {
	if len(sorted) == 0 {
		return 0
	}
	lo, hi, frac := ranks(len(sorted), p)
	return between(sorted[lo], sorted[hi], frac)
}

// ranks are the two ranks (0-based, in sorted order) percentile p of n
// values lies between, and how far it lies from lo to hi.
func ranks(n int, p float64) (lo, hi int, frac float64) {
	pos := p / 100 * float64(n-1)
	lo = int(math.Floor(pos))
	return lo, min(lo+1, n-1), pos - float64(lo)
}

func between[T ~int64 | ~float64](a, b T, frac float64) T {
	return T(float64(a) + frac*(float64(b)-float64(a)))
}

// LiveTPS is tokens per second over the trailing LiveWindow ending at now,
// clipped to the stream's life: the tokens of the events that arrived in
// (max(now − LiveWindow, first event), now], divided by the length of that
// interval. Clipping at the first event keeps a stream shorter than the
// window from being diluted by the time before it started (a 0.2 s answer at
// 2000 tok/s reads 2000, not 400), and leaves out the first event's tokens as
// OutputTPS does. It drives the sparklines and the live chart.
//
// The events are in time order, as a stream records them; the tokens in the
// window are two of the record's running sums, so a frame's cost does not
// grow with the stream.
func LiveTPS(events probes.Events, now time.Duration) float64 {
	first, ok := events.First()
	if !ok || now <= first.At {
		return 0
	}
	from := max(now-LiveWindow, first.At)
	tok := events.TokensBefore(events.Search(now)) - events.TokensBefore(events.Search(from))
	return float64(tok) / (now - from).Seconds()
}

// SoFar are the figures of a stream still in flight, from per-event o200k
// counts (the settled figures of Compute replace them when it ends).
func SoFar(events probes.Events) (tokensSoFar int, tps float64, ok bool) {
	first, some := events.First()
	if !some {
		return 0, 0, false
	}
	last, _ := events.Last()
	tokensSoFar = events.TokensBefore(events.Len())
	tps, ok = OutputTPS(tokensSoFar, first, last)
	return tokensSoFar, tps, ok
}

// AggregateTPS is one provider's throughput across its simultaneous streams:
// every stream's output tokens (failed streams count what they delivered)
// divided by the time from release to the end of its last stream. It is
// undefined when none of the streams completed: a provider that served no
// answer has no throughput to report.
func AggregateTPS(figs []Figures) (float64, bool) {
	var tok int
	var end time.Duration
	completed := false
	for _, f := range figs {
		tok += f.OutputTokens
		end = max(end, f.E2E)
		completed = completed || f.Completed
	}
	if end <= 0 || !completed {
		return 0, false
	}
	return float64(tok) / end.Seconds(), true
}

// Cost in USD of one request: prompt and output tokens at the per-million prices.
func Cost(p config.Price, promptTokens, outputTokens int) float64 {
	return (float64(promptTokens)*p.InputPerMTok + float64(outputTokens)*p.OutputPerMTok) / 1e6
}

// Rules of thumb, so an audience can read the speeds.
const (
	// WordsPerToken: an English word is about 1.33 tokens, so a token is about 0.75 words.
	WordsPerToken = 0.75
	// ReadingTPS: silent reading, about 240 words a minute, in tokens/s.
	ReadingTPS = 240.0 / 60 / WordsPerToken
	// AgentCalls and AgentCallTokens size the agent loop of AgentLoop.
	AgentCalls      = 30
	AgentCallTokens = 200
)

// WordsPerSecond converts tokens/s to approximate English words/s.
func WordsPerSecond(tps float64) float64 { return tps * WordsPerToken }

// SpeedBadge's thresholds, in tok/s per user.
const (
	ConversationalTPS = 50
	VoiceReadyTPS     = 150
)

// SpeedBadge names what a per-user speed is good for: about 20 tok/s is
// slow, about 80 is conversational, 150 and up is fast enough for voice.
// It is the dashboard's "speed badge"; "feel" is a stream's smoothness
// (Felt), one word for one thing.
func SpeedBadge(tps float64) string {
	switch {
	case tps >= VoiceReadyTPS:
		return "voice-ready"
	case tps >= ConversationalTPS:
		return "conversational"
	default:
		return "slow"
	}
}

// AgentLoop is how long AgentCalls sequential calls would take, each waiting
// TTFT and then generating AgentCallTokens at the measured output speed:
// what this provider means for an agent that chains calls.
func AgentLoop(ttft time.Duration, tps float64) (time.Duration, bool) {
	if tps <= 0 {
		return 0, false
	}
	call := ttft + time.Duration(float64(AgentCallTokens)/tps*float64(time.Second))
	return AgentCalls * call, true
}
