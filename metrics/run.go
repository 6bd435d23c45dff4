package metrics

import (
	"math"
	"slices"
	"time"

	"tpsrace/probes"
)

// Stream is what a provider's figures read of one of its streams: Compute's
// figures, its tokens counted per event (TimeToTokens' scale) and, with
// --finish-at N, its time to N tokens.
type Stream struct {
	Figures
	EventTokens int           // o200k tokens, counted per event (probes.Events.TokensBefore)
	TimeToN     time.Duration // TimeToTokens, when ReachedN
	ReachedN    bool
	Tool        *ToolCall   // ToolCallOf, under the tool-call workload; nil otherwise
	JSON        *JSONAnswer // JSONAnswerOf, under the json workload; nil otherwise
	InputTokens int         // InputTokens: the prompt's size under long-context; 0 otherwise
}

// StreamOf is r's Stream; finishAt is --finish-at's N (0: none).
func StreamOf(r *probes.Result, promptTokens, finishAt int) Stream {
	s := Stream{Figures: Compute(r, promptTokens), EventTokens: r.Events.TokensBefore(r.Events.Len()), InputTokens: InputTokens(r)}
	if finishAt > 0 {
		s.TimeToN, s.ReachedN = TimeToTokens(r.Events, finishAt)
	}
	return s
}

// Dist is one figure over the streams that measured it: the median (P50,
// Median's rule), P95 and the extremes. N is how many streams measured it;
// 0 means none did, and the rest is undefined.
type Dist[T ~int64 | ~float64] struct {
	P50, P95, Min, Max T
	N                  int
}

// Has is whether some stream measured the figure.
func (d Dist[T]) Has() bool { return d.N > 0 }

// DistOf the values that are not NaN.
func DistOf[T ~int64 | ~float64](values []T) Dist[T] {
	v := make([]T, 0, len(values))
	for _, x := range values {
		if x == x { // NaN is the one value unequal to itself
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return Dist[T]{}
	}
	slices.Sort(v)
	return Dist[T]{P50: Percentile(v, 50), P95: Percentile(v, 95), Min: v[0], Max: v[len(v)-1], N: len(v)}
}

// Median of the values that are not NaN (Percentile's rule: the mean of
// the middle two of an even count); ok is false when there are none. It is
// the one median of tpsrace: across streams, across runs, in the verdict.
func Median[T ~int64 | ~float64](values []T) (median T, ok bool) {
	d := DistOf(values)
	return d.P50, d.Has()
}

// Run is one provider's figures for one run: its streams raced together.
// Over the streams of several runs pooled (bench's summary) every figure
// but AggregateTPS and End still means what it says, as a distribution over
// more streams.
//
// Each figure is taken over the streams that measured it, so that a
// failure takes away what it broke and nothing else:
//   - TTFT and TTFA over every stream that got (answer) text: a failure
//     later does not change when the first token came.
//   - TimeToN over every stream that reached N tokens, for the same reason.
//     The race to N is decided on the median time (N ÷ median time, not the
//     median of N ÷ time): the time is what was measured, and with an even
//     count the median of rates is not the rate of the median time (two
//     streams at 1 s and 3 s reach N in a median 2 s, a rate of N/2, where
//     the median of the rates N/1 and N/3 is N/1.5).
//   - Speed, E2E, ServerTPS and ServerPromptTPS over the completed streams: a failed
//     stream's speed and end are the failure's, not the provider's.
//   - Cost over every request with a price and something to bill (a
//     request refused before any token has no cost: undefined, not 0).
//   - Tokens, per user, over every stream: what one user got, a failed
//     stream counting what it delivered.
type Run struct {
	Streams, Completed, Failed int
	RateLimited                bool // some stream was answered 429

	TTFT, TTFA Dist[time.Duration]
	E2E        Dist[time.Duration]
	Speed      Dist[float64] // per-user output speed (Figures.OutputTPS), tok/s
	ServerTPS  Dist[float64]
	// ServerPromptTPS: the server's prompt (prefill) speed (Figures.ServerPromptTPS).
	ServerPromptTPS Dist[float64]
	CostUSD         Dist[float64] // the cost of one request
	// PromptTokens: the provider's count of the prompt (Figures.PromptTokens),
	// over every stream that reported one: a multi-turn turn's input.
	PromptTokens Dist[float64]

	// FinishAt is --finish-at's N (0: none); TimeToN the time to N tokens.
	// StoppedShort: some stream completed and none reached N (nobody wins
	// by writing less).
	FinishAt     int
	TimeToN      Dist[time.Duration]
	StoppedShort bool

	// Tokens and O200kTokens are per user: the median over every stream of
	// its output tokens (Figures.OutputTokens) and of its o200k count,
	// rounded to a whole token. TokenSource is SourceUsage when every
	// stream that delivered tokens reported usage (and one did).
	// TotalTokens is the sum over the streams, what AggregateTPS divides.
	Tokens, O200kTokens, TotalTokens int
	TokenSource                      string
	// EventTokens is per user too, counted per event as TimeToTokens
	// counts: the race track's and --finish-at's count, so a provider that
	// stopped short of N shows fewer than N.
	EventTokens int

	// Tool-call workload (streams with Stream.Tool): ToolFirst over the
	// streams that made a call, ToolComplete over those whose calls
	// completed valid, ArgsTPS over those that defined it; ToolStreams
	// counts the streams measured, ToolValid those whose calls were valid.
	ToolFirst, ToolComplete Dist[time.Duration]
	ArgsTPS                 Dist[float64]
	ToolStreams, ToolValid  int
	// json workload (streams with Stream.JSON): JSONFirst over the streams
	// with answer text, JSONValidAt over those whose answer became valid;
	// JSONStreams counts the streams measured, JSONValid the valid answers.
	JSONFirst, JSONValidAt Dist[time.Duration]
	JSONStreams, JSONValid int

	// PrefillTPS: PrefillTPS over the streams with an input size and a
	// TTFT (long-context); HasPrefillTPS false when the streams do not
	// support one (PrefillTPS's rule), NoPrefill then says why (""
	// without a stream of a size: nothing to say). Sized counts the
	// streams with an input size.
	PrefillTPS    float64
	HasPrefillTPS bool
	NoPrefill     NoPrefill
	Sized         int
	// Turns and Conversation: a multi-turn conversation's turns and
	// ConversationTime over them (set by the caller, who knows which race
	// was which turn); the verdict compares the conversation's time.
	Turns           int
	Conversation    time.Duration
	HasConversation bool
	// ByAnswer: the verdict compares time to answer (ByAnswer sets it on
	// a race of reasoning models).
	ByAnswer bool
	// Warm: the streams are cached-prefix's warm requests (set by the
	// caller, who knows which race was which); the verdict compares their TTFT.
	Warm bool

	// AggregateTPS: metrics.AggregateTPS of the streams. End: release to
	// the end of the last stream.
	AggregateTPS    float64
	HasAggregateTPS bool
	End             time.Duration

	// Felt: FeltOfRun of the streams' (the most stalls any user saw, the
	// median user's burstiness and reader wait).
	Felt Felt
	// RunPhases: thinking and answering apart (RunPhasesOf).
	RunPhases
}

// RunOf is the figures of one provider's streams; finishAt is --finish-at's
// N (0: none). It is the one aggregation: the dashboard's settled figures,
// the verdict, --heats, bench's report and JSON, replay --bench and watch's
// series all read it.
func RunOf(streams []Stream, finishAt int) Run {
	r := Run{Streams: len(streams), FinishAt: finishAt, TokenSource: SourceUsage}
	var ttft, ttfa, e2e, timeToN, toolFirst, toolComplete, jsonFirst, jsonValid []time.Duration
	var speed, server, serverPrompt, cost, tokens, o200k, events, argsTPS, prompt []float64
	var prefill []PrefillPoint
	figs := make([]Figures, len(streams))
	felt := make([]Felt, len(streams))
	usage := false
	for i, s := range streams {
		figs[i], felt[i] = s.Figures, s.Felt
		r.RateLimited = r.RateLimited || s.RateLimited
		r.End = max(r.End, s.E2E)
		r.TotalTokens += s.OutputTokens
		tokens = append(tokens, float64(s.OutputTokens))
		o200k = append(o200k, float64(s.O200kTokens))
		events = append(events, float64(s.EventTokens))
		if s.OutputTokens > 0 && s.TokenSource != SourceUsage {
			r.TokenSource = SourceEstimate
		}
		usage = usage || s.TokenSource == SourceUsage
		if s.InputTokens > 0 {
			r.Sized++
		}
		if s.HasTTFT {
			ttft = append(ttft, s.TTFT)
			if s.InputTokens > 0 {
				prefill = append(prefill, PrefillPoint{s.InputTokens, s.TTFT})
			}
		}
		if s.HasTTFA {
			ttfa = append(ttfa, s.TTFA)
		}
		if s.ReachedN && finishAt > 0 {
			timeToN = append(timeToN, s.TimeToN)
		}
		if s.HasCost {
			cost = append(cost, s.CostUSD)
		}
		if s.HasPromptTokens {
			prompt = append(prompt, float64(s.PromptTokens))
		}
		if j := s.JSON; j != nil {
			r.JSONStreams++
			if j.HasFirst {
				jsonFirst = append(jsonFirst, j.First)
			}
			if j.Valid {
				r.JSONValid++
			}
			if j.Valid && j.HasValid {
				jsonValid = append(jsonValid, j.ValidAt)
			}
		}
		if t := s.Tool; t != nil {
			r.ToolStreams++
			if t.Calls > 0 {
				toolFirst = append(toolFirst, t.First)
			}
			if t.Valid {
				r.ToolValid++
			}
			if t.Valid && t.HasComplete {
				toolComplete = append(toolComplete, t.Complete)
			}
			if t.HasArgsTPS {
				argsTPS = append(argsTPS, t.ArgsTPS)
			}
		}
		if !s.Completed {
			r.Failed++
			continue
		}
		r.Completed++
		e2e = append(e2e, s.E2E)
		if s.HasOutputTPS {
			speed = append(speed, s.OutputTPS)
		}
		if s.HasServerTPS {
			server = append(server, s.ServerTPS)
		}
		if s.HasServerPromptTPS {
			serverPrompt = append(serverPrompt, s.ServerPromptTPS)
		}
	}
	if !usage {
		r.TokenSource = SourceEstimate
	}
	r.TTFT, r.TTFA, r.E2E, r.TimeToN = DistOf(ttft), DistOf(ttfa), DistOf(e2e), DistOf(timeToN)
	r.Speed, r.ServerTPS, r.ServerPromptTPS, r.CostUSD = DistOf(speed), DistOf(server), DistOf(serverPrompt), DistOf(cost)
	r.PromptTokens = DistOf(prompt)
	r.ToolFirst, r.ToolComplete, r.ArgsTPS = DistOf(toolFirst), DistOf(toolComplete), DistOf(argsTPS)
	r.JSONFirst, r.JSONValidAt = DistOf(jsonFirst), DistOf(jsonValid)
	r.PrefillTPS, r.NoPrefill = PrefillTPS(prefill)
	r.HasPrefillTPS = r.NoPrefill == ""
	if r.Sized == 0 {
		r.NoPrefill = ""
	}
	r.Tokens, r.O200kTokens, r.EventTokens = RoundedMedian(tokens), RoundedMedian(o200k), RoundedMedian(events)
	r.StoppedShort = finishAt > 0 && r.Completed > 0 && !r.TimeToN.Has()
	r.AggregateTPS, r.HasAggregateTPS = AggregateTPS(figs)
	r.Felt, r.RunPhases = FeltOfRun(felt), RunPhasesOf(streams)
	return r
}

// RoundedMedian is Median rounded to a whole number (half away from zero),
// for counts such as tokens per user; 0 without values.
func RoundedMedian(v []float64) int {
	m, _ := Median(v)
	return int(math.Round(m))
}

// Metric is what the verdict compares for this run: the workload's own
// figure (the time to a complete tool call, the prefill speed), else the
// time to N tokens with --finish-at N, else output speed.
func (r Run) Metric() string {
	switch {
	case r.ToolStreams > 0:
		return ToolCallMetric
	case r.JSONStreams > 0:
		return JSONMetric
	case r.Warm:
		return WarmMetric
	case r.Turns > 0:
		return ConversationMetric
	case r.Sized > 0:
		return PrefillMetric
	case r.ByAnswer:
		return AnswerMetric
	case r.FinishAt > 0:
		return FinishMetric
	}
	return VerdictMetric
}

// Rate is what the verdict compares for this run (Metric), bigger is
// better: the median output speed; with --finish-at N, N ÷ the median time
// to N tokens; under tool-call, 1 ÷ the median time to a complete valid
// call; under long-context, the prefill estimate; under cached-prefix, 1 ÷
// the warm requests' median TTFT; under json, 1 ÷ the median time to
// valid JSON. NaN when the run has
// none: no stream completed (a provider that served no answer is in no
// verdict, whatever it streamed before failing), none reached N, no call
// was valid, no estimate could be made.
func (r Run) Rate() float64 {
	if r.Completed == 0 {
		return math.NaN()
	}
	switch r.Metric() {
	case ToolCallMetric:
		if r.ToolComplete.Has() && r.ToolComplete.P50 > 0 {
			return 1 / r.ToolComplete.P50.Seconds()
		}
	case PrefillMetric:
		if r.HasPrefillTPS {
			return r.PrefillTPS
		}
	case WarmMetric:
		if r.TTFT.Has() && r.TTFT.P50 > 0 {
			return 1 / r.TTFT.P50.Seconds()
		}
	case AnswerMetric:
		if r.TTFA.Has() && r.TTFA.P50 > 0 {
			return 1 / r.TTFA.P50.Seconds()
		}
	case JSONMetric:
		if r.JSONValidAt.Has() && r.JSONValidAt.P50 > 0 {
			return 1 / r.JSONValidAt.P50.Seconds()
		}
	case ConversationMetric:
		if r.HasConversation && r.Conversation > 0 {
			return 1 / r.Conversation.Seconds()
		}
	case FinishMetric:
		if r.TimeToN.Has() {
			return float64(r.FinishAt) / r.TimeToN.P50.Seconds()
		}
	default:
		if r.Speed.Has() {
			return r.Speed.P50
		}
	}
	return math.NaN()
}

// workloadMetric reports whether m is a workload's own figure.
func workloadMetric(m string) bool {
	return m == ToolCallMetric || m == PrefillMetric || m == WarmMetric || m == JSONMetric || m == ConversationMetric || m == AnswerMetric
}

// Order ranks providers by their runs (one run each, or each one's streams
// pooled over runs), best first, and returns their indexes: by Rank, or
// with --finish-at by RankFinish. The dashboard's leaderboard ranks its
// figures by the same two functions.
func Order(runs []Run) []int {
	if len(runs) > 0 && workloadMetric(runs[0].Metric()) {
		// The workload's figure, as a rate (bigger is better), in the place of speed.
		standings := make([]Standing, len(runs))
		for i, r := range runs {
			rate := r.Rate()
			standings[i] = Standing{Speed: rate, HasSpeed: !math.IsNaN(rate), TTFT: r.TTFT.P50, HasTTFT: r.TTFT.Has(), Failed: r.Completed == 0}
		}
		return Rank(standings)
	}
	if len(runs) > 0 && runs[0].FinishAt > 0 {
		standings := make([]Finish, len(runs))
		for i, r := range runs {
			standings[i] = Finish{Time: r.TimeToN.P50, Reached: r.TimeToN.Has(), Tokens: r.EventTokens, Failed: r.Completed == 0}
		}
		return RankFinish(standings)
	}
	standings := make([]Standing, len(runs))
	for i, r := range runs {
		standings[i] = Standing{Speed: r.Speed.P50, HasSpeed: r.Speed.Has(), TTFT: r.TTFT.P50, HasTTFT: r.TTFT.Has(), Failed: r.Completed == 0}
	}
	return Rank(standings)
}
