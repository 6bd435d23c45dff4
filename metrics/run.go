package metrics

import (
	"time"

	"tpsrace/probes"
)

// Stream is what a provider's figures read of one of its streams: Compute's
// figures, its tokens counted per event (TimeToTokens' scale) and, with
// --finish-at N, its time to N tokens. A stream still in flight
// (StreamSoFar, Running) reads what has arrived so far.
type Stream struct {
	Figures
	// Running: the stream has not ended; its figures are StreamSoFar's,
	// and it counts neither as completed nor as failed.
	Running     bool
	EventTokens int           // o200k tokens, counted per event (probes.Events.TokensBefore)
	TimeToN     time.Duration // TimeToTokens, when ReachedN
	ReachedN    bool
	Tool        *ToolCall   // ToolCallOf, under the tool-call workload; nil otherwise
	JSON        *JSONAnswer // JSONAnswerOf, under the json workload; nil otherwise
	InputTokens int         // InputTokens: the prompt's size under long-context; 0 otherwise
	// UnderSLO: the provider has an SLO (JudgeSLO), and SLOMissed is what
	// the stream missed of it (MeetsSLO; none: it met the SLO).
	UnderSLO  bool
	SLOMissed []string
}

// StreamOf is r's Stream; finishAt is --finish-at's N (0: none).
func StreamOf(r *probes.Result, promptTokens, finishAt int) Stream {
	s := Stream{Figures: Compute(r, promptTokens), EventTokens: r.Events.TokensBefore(r.Events.Len()), InputTokens: InputTokens(r)}
	if finishAt > 0 {
		s.TimeToN, s.ReachedN = TimeToTokens(r.Events, finishAt)
	}
	return s
}

// StreamSoFar is a stream still in flight, from its events so far: TTFT,
// TTFA, its o200k tokens so far (counted per event, an estimate until
// the provider's usage comes) and its speed so far (SoFar); finishAt is
// --finish-at's N (0: none). Compute's figures replace it when it ends.
func StreamSoFar(events probes.Events, finishAt int) Stream {
	s := Stream{Running: true, EventTokens: events.TokensBefore(events.Len())}
	s.TokenSource, s.OutputTokens, s.O200kTokens = SourceEstimate, s.EventTokens, s.EventTokens
	if first, ok := events.First(); ok {
		s.TTFT, s.HasTTFT = first.At, true
	}
	for e := range events.Values() {
		if e.Content != "" {
			s.TTFA, s.HasTTFA = e.At, true
			break
		}
	}
	_, s.OutputTPS, s.HasOutputTPS = SoFar(events)
	if finishAt > 0 {
		s.TimeToN, s.ReachedN = TimeToTokens(events, finishAt)
	}
	return s
}

// Summary is one provider's figures over some of its streams: one race's
// (raced together), one run's, or every run's pooled (bench's summary),
// where every figure but AggregateTPS and End still means what it says,
// as a distribution over more streams.
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
//   - A stream still in flight (Stream.Running) counts where it has
//     measured something so far: TTFT, TTFA, tokens and its speed so far;
//     neither completed nor failed, it has no E2E, cost or server figure
//     yet, and AggregateTPS and End wait for every stream's end. The
//     dashboard's figures mid-race are SummaryOf of the streams so far.
type Summary struct {
	Streams, Completed, Failed, Running int
	RateLimited                         bool // some stream was answered 429

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

	// Goodput: the streams under the provider's SLO (Stream.UnderSLO),
	// ended ones only (addGoodput); HasGoodput false without an SLO.
	// PerSecond is set over a workload's races (WorkloadRunsOf), which
	// know the races' time.
	Goodput    Goodput
	HasGoodput bool

	// RunPhases: thinking and answering apart (RunPhasesOf).
	RunPhases
}

// SummaryOf is the figures of one provider's streams; finishAt is --finish-at's
// N (0: none). It is the one aggregation: the dashboard's figures (mid-race
// too, of the streams so far), the verdict, --heats, bench's report and
// JSON, `report`, replay --bench and watch's series all read it.
func SummaryOf(streams []Stream, finishAt int) Summary {
	a := runAcc{r: Summary{Streams: len(streams), FinishAt: finishAt, TokenSource: SourceUsage}, streams: streams,
		figs: make([]Figures, 0, len(streams)), felt: make([]Felt, 0, len(streams))}
	for _, s := range streams {
		a.add(s)
	}
	return a.run()
}

// Sample is what one stream adds to its provider's main figures, by
// SummaryOf's rule: TTFT when it got text, speed and E2E once it completed
// (speed so far while it runs). watch's histograms observe the same.
type Sample struct {
	TTFT, E2E                 time.Duration
	Speed                     float64
	HasTTFT, HasE2E, HasSpeed bool
}

// SampleOf is s's Sample.
func SampleOf(s Stream) Sample {
	return Sample{TTFT: s.TTFT, HasTTFT: s.HasTTFT, E2E: s.E2E, HasE2E: s.Completed && !s.Running,
		Speed: s.OutputTPS, HasSpeed: s.HasOutputTPS && (s.Completed || s.Running)}
}

// runAcc gathers SummaryOf's values, one concern a method.
type runAcc struct {
	r                                                                         Summary
	ttft, ttfa, e2e, timeToN, toolFirst, toolComplete, jsonFirst, jsonValid   []time.Duration
	speed, server, serverPrompt, cost, tokens, o200k, events, argsTPS, prompt []float64
	prefill                                                                   []PrefillPoint
	figs                                                                      []Figures
	felt                                                                      []Felt
	usage                                                                     bool
	streams                                                                   []Stream
}

func (a *runAcc) add(s Stream) {
	r := &a.r
	a.figs, a.felt = append(a.figs, s.Figures), append(a.felt, s.Felt)
	r.RateLimited = r.RateLimited || s.RateLimited
	r.End = max(r.End, s.E2E)
	a.addTokens(s)
	sample := SampleOf(s)
	if sample.HasTTFT {
		a.ttft = append(a.ttft, s.TTFT)
	}
	if sample.HasSpeed {
		a.speed = append(a.speed, s.OutputTPS)
	}
	if s.InputTokens > 0 {
		r.Sized++
		if s.HasTTFT {
			a.prefill = append(a.prefill, PrefillPoint{s.InputTokens, s.TTFT})
		}
	}
	if s.HasTTFA {
		a.ttfa = append(a.ttfa, s.TTFA)
	}
	if s.ReachedN && r.FinishAt > 0 {
		a.timeToN = append(a.timeToN, s.TimeToN)
	}
	if s.HasPromptTokens {
		a.prompt = append(a.prompt, float64(s.PromptTokens))
	}
	a.addJSON(s.JSON)
	a.addTool(s.Tool)
	a.addGoodput(s)
	switch {
	case s.Running:
		r.Running++
	case !s.Completed:
		r.Failed++
	default:
		r.Completed++
		a.e2e = append(a.e2e, s.E2E)
		a.addServer(s.Figures)
	}
	if s.HasCost && !s.Running {
		a.cost = append(a.cost, s.CostUSD)
	}
}

func (a *runAcc) addTokens(s Stream) {
	a.r.TotalTokens += s.OutputTokens
	a.tokens = append(a.tokens, float64(s.OutputTokens))
	a.o200k = append(a.o200k, float64(s.O200kTokens))
	a.events = append(a.events, float64(s.EventTokens))
	if s.OutputTokens > 0 && s.TokenSource != SourceUsage {
		a.r.TokenSource = SourceEstimate
	}
	a.usage = a.usage || s.TokenSource == SourceUsage
}

func (a *runAcc) addServer(f Figures) {
	if f.HasServerTPS {
		a.server = append(a.server, f.ServerTPS)
	}
	if f.HasServerPromptTPS {
		a.serverPrompt = append(a.serverPrompt, f.ServerPromptTPS)
	}
}

func (a *runAcc) addJSON(j *JSONAnswer) {
	if j == nil {
		return
	}
	a.r.JSONStreams++
	if j.HasFirst {
		a.jsonFirst = append(a.jsonFirst, j.First)
	}
	if j.Valid {
		a.r.JSONValid++
	}
	if j.Valid && j.HasValid {
		a.jsonValid = append(a.jsonValid, j.ValidAt)
	}
}

func (a *runAcc) addTool(t *ToolCall) {
	if t == nil {
		return
	}
	a.r.ToolStreams++
	if t.Calls > 0 {
		a.toolFirst = append(a.toolFirst, t.First)
	}
	if t.Valid {
		a.r.ToolValid++
	}
	if t.Valid && t.HasComplete {
		a.toolComplete = append(a.toolComplete, t.Complete)
	}
	if t.HasArgsTPS {
		a.argsTPS = append(a.argsTPS, t.ArgsTPS)
	}
}

// addGoodput counts an ended stream under an SLO: one in flight has met
// nothing yet, and has missed nothing yet either.
func (a *runAcc) addGoodput(s Stream) {
	if !s.UnderSLO || s.Running {
		return
	}
	g := &a.r.Goodput
	a.r.HasGoodput = true
	g.Streams++
	if len(s.SLOMissed) == 0 {
		g.Met++
	}
	g.Share = float64(g.Met) / float64(g.Streams)
}

func (a *runAcc) run() Summary {
	r := a.r
	if !a.usage {
		r.TokenSource = SourceEstimate
	}
	r.TTFT, r.TTFA, r.E2E, r.TimeToN = DistOf(a.ttft), DistOf(a.ttfa), DistOf(a.e2e), DistOf(a.timeToN)
	r.Speed, r.ServerTPS, r.ServerPromptTPS, r.CostUSD = DistOf(a.speed), DistOf(a.server), DistOf(a.serverPrompt), DistOf(a.cost)
	r.PromptTokens = DistOf(a.prompt)
	r.ToolFirst, r.ToolComplete, r.ArgsTPS = DistOf(a.toolFirst), DistOf(a.toolComplete), DistOf(a.argsTPS)
	r.JSONFirst, r.JSONValidAt = DistOf(a.jsonFirst), DistOf(a.jsonValid)
	r.PrefillTPS, r.NoPrefill = PrefillTPS(a.prefill)
	r.HasPrefillTPS = r.NoPrefill == ""
	if r.Sized == 0 {
		r.NoPrefill = ""
	}
	r.Tokens, r.O200kTokens, r.EventTokens = RoundedMedian(a.tokens), RoundedMedian(a.o200k), RoundedMedian(a.events)
	r.StoppedShort = r.FinishAt > 0 && r.Completed > 0 && r.Running == 0 && !r.TimeToN.Has()
	if r.Running == 0 { // the aggregate's window ends with the last stream
		r.AggregateTPS, r.HasAggregateTPS = AggregateTPS(a.figs)
	}
	r.Felt, r.RunPhases = FeltOfRun(a.felt), RunPhasesOf(a.streams)
	return r
}
