// Package live is what the dashboard knows about each provider while a race
// runs: the recorded events and results of its streams, and the figures of
// package metrics evaluated at a moment of the race. It computes no figure
// of its own: a provider's figures are metrics.SummaryOf of its streams so far
// (metrics.StreamSoFar while one runs, its settled figures once it has
// ended), the function bench and the verdict read. series.go samples the
// sparklines and the chart; scale.go holds what every lane is drawn
// against: the shared tok/s scale and the race track's finish line.
package live

import (
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
	// Events is the stream's packed record: a view of it as the relay
	// hands it on once a frame, then the Result's record once it ends.
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
	// read is how many events the first answer and reasoning tokens are
	// counted over: not Events.Len(), which a record shared with its writer
	// (a test's) grows under.
	read  int
	tools []probes.ToolDelta // tool-call deltas so far; the Result's once it ends
	// toolSoFar is the running stream's calls as of its first toolDeltas
	// deltas (metrics.ToolCallSoFar), assembled again only when more came.
	toolSoFar  metrics.ToolCall
	toolDeltas int
}

// toolCallSoFar is the running stream's calls so far under fn
// (metrics.ToolCallSoFar), assembled once per new deltas, not per frame.
func (s *Stream) toolCallSoFar(fn *workload.Schema) *metrics.ToolCall {
	if len(s.tools) != s.toolDeltas || s.toolDeltas == 0 { // none yet: cheap, and text may have come
		s.toolSoFar, s.toolDeltas = metrics.ToolCallSoFar(s.tools, s.Events.Len() > 0, fn), len(s.tools)
	}
	return &s.toolSoFar
}

// failed is whether the stream ended with an error.
func (s *Stream) failed() bool { return s.Result != nil && !s.Result.OK() }

// tokens is the o200k tokens of Events (per-event counts).
func (s *Stream) tokens() int { return s.Events.TokensBefore(s.Events.Len()) }

// tokensAt is the o200k tokens of the events that arrived by t.
func (s *Stream) tokensAt(t time.Duration) int { return s.Events.TokensBefore(s.Events.Search(t)) }

// Lane is what the dashboard knows of one provider in the race (its lane):
// its streams so far and the text the lane follows. config.Provider is the
// provider itself.
type Lane struct {
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
	samples      []float64       // final samples of per-user live tok/s, one per SamplePeriod
	tokenSamples []float64       // final samples of per-user tokens so far, one per SamplePeriod
	sampleTimes  []time.Duration // k × SamplePeriod at k: TokenSeries' times
}

// NewLane is the lane of provider p (index i of the race) with concurrency streams.
// promptTokens is the o200k count of the prompt.
func NewLane(i int, p config.Provider, concurrency, promptTokens int) *Lane {
	return &Lane{Index: i, Name: p.Name, Model: p.Model, Streams: make([]Stream, max(concurrency, 1)), kind: p.Kind, slo: p.SLO, promptTokens: promptTokens, box: p.Box}
}

// Record adds one update of the race that belongs to this provider.
func (p *Lane) Record(u probes.Update) {
	if u.Stream < 0 || u.Stream >= len(p.Streams) {
		return
	}
	s := &p.Streams[u.Stream]
	if n := u.Events.Len(); n > s.read { // a view of the stream's record, every event so far
		s.Events = u.Events
		for _, e := range s.Events.From(s.read) {
			if e.Content != "" && !s.hasFirstAnswer {
				s.firstAnswer, s.hasFirstAnswer = e.At, true
			}
			if e.Content == "" {
				s.reasoningTokens += e.Tokens
			}
		}
		s.read = n
	}
	if d := u.Tool; d != nil {
		s.tools = append(s.tools, *d)
	}
	if r := u.Done; r != nil {
		// The result's record: the one viewed, and the truth where the
		// views had fewer events.
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
func (p *Lane) follow(i int) {
	cur, next := &p.Streams[p.following], &p.Streams[i]
	switch {
	case i == p.following || next.failed():
	case cur.failed(), cur.Result == nil && next.tokens() > cur.tokens()+cur.tokens()/4:
		p.following = i
	}
}

// Following is the index of the stream whose text Answer and Reasoning are.
func (p *Lane) Following() int { return p.following }

// followedText is the followed stream's texts, the only ones a lane shows:
// read from its record as the lane asks for them, the new events each
// time, so a stream keeps its text once, in its record. Following another
// stream, or a record that is not the one read (Events.SameRecord), reads
// the record again from the start.
type followedText struct {
	record            probes.Events // the record read (a copy shares it)
	stream, events    int           // whose record, and how many events are in
	tools             int           // tool-call deltas in
	settled           bool          // the call's (the JSON answer's) verdict is in
	pretty            prettyJSON    // where the indenting of a call's arguments (a json answer) stands
	answer, reasoning strings.Builder
}

func (p *Lane) followed() *followedText {
	s, t := &p.Streams[p.following], &p.text
	if t.stream != p.following || !t.record.SameRecord(s.Events) {
		*t = followedText{record: s.Events, stream: p.following}
	}
	for _, e := range s.Events.From(t.events) {
		t.add(p, e)
	}
	t.writeWorkload(s, p)
	return t
}

func (t *followedText) add(p *Lane, e probes.Event) {
	if p.answerSchema != nil { // a json answer, indented as it arrives
		t.pretty.write(&t.answer, e.Content)
	} else {
		appendText(&t.answer, e.Content)
	}
	appendText(&t.reasoning, e.Reasoning)
	t.events++
}

// appendText appends s to b, doubling b's room when it runs out
// (strings.Builder.Grow's rule) rather than by append's quarter for large
// buffers: a lane's text grows to hundreds of KB over a race, and a quarter
// at a time copies it about five times over, where doubling copies it once.
func appendText(b *strings.Builder, s string) {
	if b.Cap()-b.Len() < len(s) {
		b.Grow(len(s))
	}
	b.WriteString(s)
}

// Answer is the followed stream's answer text so far.
func (p *Lane) Answer() string { return p.followed().answer.String() }

// Reasoning is the followed stream's reasoning text so far.
func (p *Lane) Reasoning() string { return p.followed().reasoning.String() }

// ReasoningTokens counts the o200k tokens of the followed stream's reasoning-only events.
func (p *Lane) ReasoningTokens() int { return p.Streams[p.following].reasoningTokens }

// Results are the recorded results of every stream; ok is false until all ended.
func (p *Lane) Results() (results []probes.Result, ok bool) {
	for _, s := range p.Streams {
		if s.Result == nil {
			return nil, false
		}
		results = append(results, *s.Result)
	}
	return results, true
}

// flags are the flags any of p's streams raised (metrics.Flags.Text).
func (p *Lane) flags() string {
	all := metrics.Flags{}
	for i := range p.Streams {
		for name, ev := range p.Streams[i].flags {
			all[name] = ev
		}
	}
	return all.Text()
}

// firstTokens are the first-token times of p's streams that had text.
func (p *Lane) firstTokens() []time.Duration {
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
func (p *Lane) End() (end time.Duration, settled, ok bool) {
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
