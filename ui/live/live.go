// Package live is what the dashboard knows about each provider while a race
// runs: the recorded events and results of its streams, and the figures of
// package metrics evaluated at a moment of the race. It computes no figure
// of its own; it only picks which metrics function applies: once every
// stream of a provider has ended, metrics.RunOf (the figures bench and the
// verdict read); while streams run, SoFar and Compute per stream and
// metrics.Median across them, by RunOf's rules. series.go samples the
// sparklines and the chart; scale.go holds what every lane is drawn
// against: the shared tok/s scale and the race track's finish line.
package live

import (
	"slices"
	"strings"
	"time"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/workload"
)

// Status is where a provider is in the race.
type Status int

// Statuses, in the order a stream goes through them.
const (
	Waiting   Status = iota // no text yet
	Thinking                // reasoning text, no answer yet
	Streaming               // answer text arriving
	Done                    // every stream ended, at least one completed
	Failed                  // every stream ended and none completed
)

func (s Status) String() string {
	return [...]string{"waiting", "thinking", "streaming", "done", "failed"}[s]
}

// Stream is one stream of a provider.
type Stream struct {
	// Events is the stream's packed record: appended as its updates
	// arrive, then the Result's own record once it ends (one record per
	// stream, not two; the Result's is the truth when the counts differ).
	Events  probes.Events
	Result  *probes.Result  // nil while the stream runs
	Figures metrics.Figures // settled figures, once Result is set
	flags   metrics.Flags   // metrics.StreamFlags, once Result is set
	// The workload's figures of the ended stream (tool-call: its call;
	// json: its answer), once Result is set; nil under other workloads.
	// Computed once: they parse and validate the whole answer.
	toolCall   *metrics.ToolCall
	jsonAnswer *metrics.JSONAnswer

	// firstAnswer is the time of the first event with answer text: the
	// instant metrics.Compute will report as TTFA, known before the end.
	firstAnswer    time.Duration
	hasFirstAnswer bool

	reasoningTokens int
	tools           []probes.ToolDelta // tool-call deltas so far; the Result's once it ends
}

// failed is whether the stream ended with an error.
func (s *Stream) failed() bool { return s.Result != nil && !s.Result.OK() }

// tokens is the o200k tokens of Events (per-event counts).
func (s *Stream) tokens() int { return s.Events.TokensBefore(s.Events.Len()) }

// tokensAt is the o200k tokens of the events that arrived by t.
func (s *Stream) tokensAt(t time.Duration) int { return s.Events.TokensBefore(s.Events.Search(t)) }

// Provider is one lane of the race.
type Provider struct {
	Index   int
	Name    string
	Model   string
	Streams []Stream
	Detail  string // on-box hardware of a local server, "" for the others

	kind         string            // config.Provider.Kind, for the referee's flags
	workload     workload.Workload // the race's, for the referee's flags (the zero value: chat)
	slo          config.SLO        // for goodput
	promptTokens int               // for cost when the provider reports no usage
	box          *config.Box       // what its memory roofline rests on (config.Provider.Box); nil for most
	tool         *workload.Schema  // the function a tool-call race offers; nil otherwise
	answerSchema *workload.Schema  // the schema a json race asks the answer to follow; nil otherwise
	following    int               // the stream whose text the lane shows
	text         followedText
	samples      []float64 // final samples of per-user live tok/s, one per SamplePeriod
	tokenSamples []float64 // final samples of per-user tokens so far, one per SamplePeriod
}

// NewProvider is provider p (index i of the race) with concurrency streams.
// promptTokens is the o200k count of the prompt.
func NewProvider(i int, p config.Provider, concurrency, promptTokens int) *Provider {
	return &Provider{Index: i, Name: p.Name, Model: p.Model, Streams: make([]Stream, max(concurrency, 1)), kind: p.Kind, slo: p.SLO, promptTokens: promptTokens, box: p.Box}
}

// Record adds one update of the race that belongs to this provider.
func (p *Provider) Record(u probes.Update) {
	if u.Stream < 0 || u.Stream >= len(p.Streams) {
		return
	}
	s := &p.Streams[u.Stream]
	if e := u.Event; e != nil {
		s.Events.Append(*e)
		if e.Content != "" && !s.hasFirstAnswer {
			s.firstAnswer, s.hasFirstAnswer = e.At, true
		}
		if e.Content == "" {
			s.reasoningTokens += e.Tokens
		}
	}
	if d := u.Tool; d != nil {
		s.tools = append(s.tools, *d)
	}
	if r := u.Done; r != nil {
		// The result's record replaces the one built from the updates: the
		// same events when all were streamed to us, the truth when not.
		s.Result, s.Events, s.tools = r, r.Events, r.ToolDeltas
		s.Figures = metrics.Compute(r, p.promptTokens)
		s.flags = metrics.StreamFlags(r, s.Figures, p.kind, p.workload)
		if p.tool != nil {
			s.toolCall = new(metrics.ToolCallOf(r, p.tool))
		}
		if p.answerSchema != nil {
			s.jsonAnswer = new(metrics.JSONAnswerOf(r, p.answerSchema))
		}
	}
	p.follow(u.Stream)
}

// follow keeps the lane's text on the stream furthest along: it moves to
// stream i when the one followed has failed, or is still running and
// stream i has more than a quarter more tokens (so the text does not flip
// between streams racing neck and neck).
func (p *Provider) follow(i int) {
	cur, next := &p.Streams[p.following], &p.Streams[i]
	switch {
	case i == p.following || next.failed():
	case cur.failed(), cur.Result == nil && next.tokens() > cur.tokens()+cur.tokens()/4:
		p.following = i
	}
}

// Following is the index of the stream whose text Answer and Reasoning are.
func (p *Provider) Following() int { return p.following }

// followedText is the followed stream's texts, the only ones a lane shows:
// read from its record as the lane asks for them, the new events each
// time, so a stream keeps its text once, in its record. Following another
// stream, or the Result's record replacing the one built from the updates,
// reads the record again from the start.
type followedText struct {
	record            probes.Events // the record read (a copy shares it)
	stream, events    int           // whose record, and how many events are in
	tools             int           // tool-call deltas in
	settled           bool          // the call's (the JSON answer's) verdict is in
	answer, reasoning strings.Builder
}

func (p *Provider) followed() *followedText {
	s, t := &p.Streams[p.following], &p.text
	if t.stream != p.following || t.record != s.Events {
		*t = followedText{record: s.Events, stream: p.following}
	}
	for _, e := range s.Events.From(t.events) {
		t.answer.WriteString(e.Content)
		t.reasoning.WriteString(e.Reasoning)
		t.events++
	}
	t.writeWorkload(s, p)
	return t
}

// Answer is the followed stream's answer text so far.
func (p *Provider) Answer() string { return p.followed().answer.String() }

// Reasoning is the followed stream's reasoning text so far.
func (p *Provider) Reasoning() string { return p.followed().reasoning.String() }

// ReasoningTokens counts the o200k tokens of the followed stream's reasoning-only events.
func (p *Provider) ReasoningTokens() int { return p.Streams[p.following].reasoningTokens }

// Results are the recorded results of every stream; ok is false until all ended.
func (p *Provider) Results() (results []probes.Result, ok bool) {
	for _, s := range p.Streams {
		if s.Result == nil {
			return nil, false
		}
		results = append(results, *s.Result)
	}
	return results, true
}

// Figures are one provider's figures at a moment of the race. With several
// streams, per-user figures are medians across them.
type Figures struct {
	Status  Status
	Settled bool // every stream ended: the figures are metrics.Compute's and final

	// Once settled, every figure is metrics.RunOf's, the one aggregation
	// bench and the verdict read; while streams run, the same rules over
	// what has arrived.
	TTFT    time.Duration // median first text event
	HasTTFT bool
	TTFTMax time.Duration // the last stream's first text event (C > 1)
	Queued  int           // streams metrics.Queued counts as queued (C > 1)
	TTFA    time.Duration // median first answer event
	HasTTFA bool
	// Thinking: the streams' phases once settled (metrics.Run's): the
	// thinking and answer speeds, thinking and hidden reasoning tokens.
	Thinking metrics.RunPhases

	// NowTPS is per-user live tok/s (metrics.LiveTPS, median across the
	// streams that are streaming: a queued stream has no speed yet, it
	// does not pull the median to zero); NowAggregateTPS is the sum across
	// all streams.
	NowTPS          float64
	NowAggregateTPS float64

	// Speed is per-user output speed: metrics.SoFar while a stream runs,
	// metrics.Compute's OutputTPS once it ends; the median across the
	// streams running and completed (settled: metrics.Run's).
	Speed    float64
	HasSpeed bool
	// AggregateTPS is metrics.AggregateTPS across the streams, once settled.
	AggregateTPS    float64
	HasAggregateTPS bool

	// Tokens is what one user got: output tokens (usage where reported
	// once a stream ends, else o200k so far), the median across every
	// stream, failed ones included (a failed lane says how far its streams
	// got); O200kTokens the same in o200k. Settled, both are metrics.Run's.
	Tokens      int
	O200kTokens int
	TokenSource string // metrics.SourceUsage when every stream with tokens ended with usage
	// UserTokens is per-user o200k tokens so far counted per event (the
	// scale of metrics.TimeToTokens), the race track's and --finish-at's
	// count: the median across every stream (settled: metrics.Run.EventTokens).
	UserTokens int

	Elapsed time.Duration // now while running; release to the end of the last stream once settled

	CostUSD float64 // median cost of one request (metrics.Run)
	HasCost bool

	// ServerTPS is the server's own generation speed (llama.cpp timings),
	// median across completed streams, shown beside the client's Speed.
	// RateLimited: some stream was answered 429.
	ServerTPS    float64
	HasServerTPS bool
	// ServerPromptTPS: the server's prompt (prefill) speed, the same way.
	ServerPromptTPS    float64
	HasServerPromptTPS bool
	// Roofline: ServerTPS against the machine's memory limit
	// (metrics.MemoryRoofline), for a llama.cpp server on this machine.
	Roofline    metrics.Roofline
	HasRoofline bool
	RateLimited bool
	// Feel is how the streams felt, once settled (metrics.Felt.Label of
	// metrics.Run's): "smooth", "bursty", "2 stalls · 1.20s"; "" before;
	// Stalls is its stall count.
	// Flags: the referee's flags its streams raised by themselves
	// (metrics.StreamFlags), once settled, with their evidence
	// (metrics.Flags.Text: "" for none, a string keeps Figures comparable); once the whole
	// race has ended, every flag touching the provider (Referee.RunFlags),
	// with Load, tpsrace's own load, for the verdict. The lane marks them ⚑.
	Feel   string
	Stalls int
	Flags  string
	Load   *probes.ClientLoad
	// E2E is the median end-to-end time of the completed streams, once settled.
	E2E time.Duration
	// SLOMet of SLOStreams met the provider's SLO (metrics.MeetsSLO), once
	// settled; both 0 without an SLO.
	SLOMet, SLOStreams int

	// With --finish-at N (FinishAt > 0), TimeToN is the median time to N
	// tokens (metrics.TimeToTokens) over the streams that got there; see RaceTo.
	FinishAt   int
	TimeToN    time.Duration
	HasTimeToN bool

	// Metric and Rate: once settled under a workload one race can judge
	// (tool-call, json), metrics.Run's Metric and Rate: what the
	// leaderboard ranks by and the verdict compares ("" otherwise; HasRate
	// false when there is none: no valid call or JSON).
	Metric  string
	Rate    float64
	HasRate bool

	// Workload is the provider's figures over the workload's run the race
	// is a step of (set by the dashboard's session); nil when none is kept.
	Workload *WorkloadRun

	Streams int // streams in the race
	Failed  int // streams that ended with an error
	// Lost are the streams a broken recording lost (the replay of a cut
	// race, probes.KindTruncated), counted in Failed: no one knows how they
	// ended, so the provider has no place and the race no verdict.
	Lost int
	Err  error // the first failure, to show in the lane
}

// Figures evaluates the provider at now (time since release).
func (p *Provider) Figures(now time.Duration) Figures {
	if run, ok := p.run(0); ok {
		return p.settled(run)
	}
	f := Figures{Streams: len(p.Streams), TokenSource: metrics.SourceEstimate, Elapsed: now}
	var speeds, costs, server, prefill, tokens, o200k, events []float64
	var ttfts, ttfas []time.Duration
	anyText, anyAnswer := false, false
	waiting := 0
	for i := range p.Streams {
		s := &p.Streams[i]
		first, hasText := s.Events.First()
		anyText = anyText || hasText
		anyAnswer = anyAnswer || s.hasFirstAnswer || len(s.tools) > 0 // a tool call is the answer
		if hasText {
			ttfts = append(ttfts, first.At)
		} else if s.Result == nil {
			waiting++
		}
		if s.hasFirstAnswer {
			ttfas = append(ttfas, s.firstAnswer)
		}
		events = append(events, float64(s.tokens()))
		if s.Result == nil {
			tok, tps, ok := metrics.SoFar(s.Events)
			tokens = append(tokens, float64(tok))
			o200k = append(o200k, float64(tok))
			if ok {
				speeds = append(speeds, tps)
			}
			continue
		}
		sf := s.Figures
		tokens = append(tokens, float64(sf.OutputTokens))
		o200k = append(o200k, float64(sf.O200kTokens))
		f.RateLimited = f.RateLimited || sf.RateLimited
		if sf.HasCost {
			costs = append(costs, sf.CostUSD)
		}
		if !s.Result.OK() {
			f.Failed++
			if f.Err == nil {
				f.Err = s.Result.Err
			}
			continue
		}
		if sf.HasOutputTPS {
			speeds = append(speeds, sf.OutputTPS)
		}
		if sf.HasServerTPS {
			server = append(server, sf.ServerTPS)
		}
		if sf.HasServerPromptTPS {
			prefill = append(prefill, sf.ServerPromptTPS)
		}
	}
	switch {
	case anyAnswer:
		f.Status = Streaming
	case anyText:
		f.Status = Thinking
	}
	f.TTFT, f.HasTTFT = metrics.Median(ttfts)
	if f.HasTTFT {
		f.TTFTMax = slices.Max(ttfts)
		f.Queued = metrics.Queued(ttfts, waiting, now)
	}
	f.Tokens, f.O200kTokens, f.UserTokens = metrics.RoundedMedian(tokens), metrics.RoundedMedian(o200k), metrics.RoundedMedian(events)
	f.TTFA, f.HasTTFA = metrics.Median(ttfas)
	f.Speed, f.HasSpeed = metrics.Median(speeds)
	f.CostUSD, f.HasCost = metrics.Median(costs)
	f.ServerTPS, f.HasServerTPS = metrics.Median(server)
	f.ServerPromptTPS, f.HasServerPromptTPS = metrics.Median(prefill)
	f.Roofline, f.HasRoofline = metrics.MemoryRoofline(f.ServerTPS, f.HasServerTPS, p.box)
	f.NowTPS, f.NowAggregateTPS = p.liveAt(now)
	return f
}

// MetricStreams are p's streams as package metrics reads them
// (metrics.StreamOf's, with the workload's figures), once every one has
// ended (ok false before); finishAt is --finish-at's N (0: none).
func (p *Provider) MetricStreams(finishAt int) (streams []metrics.Stream, ok bool) {
	streams = make([]metrics.Stream, len(p.Streams))
	for i := range p.Streams {
		s := &p.Streams[i]
		if s.Result == nil {
			return nil, false
		}
		streams[i].Figures, streams[i].EventTokens = s.Figures, s.tokens()
		streams[i].Tool, streams[i].JSON = s.toolCall, s.jsonAnswer
		streams[i].InputTokens = metrics.InputTokens(s.Result)
		if finishAt > 0 {
			streams[i].TimeToN, streams[i].ReachedN = metrics.TimeToTokens(s.Events, finishAt)
		}
	}
	return streams, true
}

// run is metrics.RunOf of p's streams once every one has ended (ok false
// before); finishAt is --finish-at's N (0: none).
func (p *Provider) run(finishAt int) (metrics.Run, bool) {
	streams, ok := p.MetricStreams(finishAt)
	if !ok {
		return metrics.Run{}, false
	}
	return metrics.RunOf(streams, finishAt), true
}

// settled are the figures of run, p's streams once all have ended.
func (p *Provider) settled(run metrics.Run) Figures {
	f := Figures{Settled: true, Status: Done, Streams: run.Streams, Failed: run.Failed, RateLimited: run.RateLimited,
		TTFT: run.TTFT.P50, HasTTFT: run.TTFT.Has(), TTFTMax: run.TTFT.Max, TTFA: run.TTFA.P50, HasTTFA: run.TTFA.Has(),
		Speed: run.Speed.P50, HasSpeed: run.Speed.Has(), AggregateTPS: run.AggregateTPS, HasAggregateTPS: run.HasAggregateTPS,
		Tokens: run.Tokens, O200kTokens: run.O200kTokens, UserTokens: run.EventTokens, TokenSource: run.TokenSource,
		Elapsed: run.End, CostUSD: run.CostUSD.P50, HasCost: run.CostUSD.Has(), ServerTPS: run.ServerTPS.P50, HasServerTPS: run.ServerTPS.Has(),
		ServerPromptTPS: run.ServerPromptTPS.P50, HasServerPromptTPS: run.ServerPromptTPS.Has(),
		Feel: run.Felt.Label(), Stalls: run.Felt.Stalls, Flags: p.flags(), E2E: run.E2E.P50, Thinking: run.RunPhases}
	f.Roofline, f.HasRoofline = metrics.MemoryRoofline(f.ServerTPS, f.HasServerTPS, p.box)
	if run.Completed == 0 {
		f.Status = Failed
	}
	if run.ToolStreams > 0 || run.JSONStreams > 0 { // one race is a whole run of tool-call and json
		f.Metric, f.Rate, f.HasRate = workloadRate(run)
	}
	if p.slo.Set() {
		f.SLOStreams = len(p.Streams)
		for i := range p.Streams {
			if len(metrics.MeetsSLO(p.Streams[i].Figures, p.slo)) == 0 {
				f.SLOMet++
			}
		}
	}
	for _, s := range p.Streams {
		if !s.Result.OK() && f.Err == nil {
			f.Err = s.Result.Err
		}
		if probes.KindOf(s.Result.Err) == probes.KindTruncated {
			f.Lost++
		}
	}
	if ttfts := p.firstTokens(); len(ttfts) > 0 {
		f.Queued = metrics.Queued(ttfts, 0, run.End)
	}
	return f
}

// flags are the flags any of p's streams raised (metrics.Flags.Text).
func (p *Provider) flags() string {
	all := metrics.Flags{}
	for i := range p.Streams {
		for name, ev := range p.Streams[i].flags {
			all[name] = ev
		}
	}
	return all.Text()
}

// firstTokens are the first-token times of p's streams that had text.
func (p *Provider) firstTokens() []time.Duration {
	var t []time.Duration
	for i := range p.Streams {
		if first, ok := p.Streams[i].Events.First(); ok {
			t = append(t, first.At)
		}
	}
	return t
}

// End is the race time of the provider's last stream's end once settled
// (every stream ended); ok is false when every stream failed.
func (p *Provider) End() (end time.Duration, settled, ok bool) {
	settled = true
	for i := range p.Streams {
		s := &p.Streams[i]
		settled = settled && s.Result != nil
		ok = ok || !s.failed()
		if s.Result != nil {
			end = max(end, s.Result.End)
		}
	}
	return end, settled, ok
}
