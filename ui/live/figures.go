package live

import (
	"time"

	"tpsrace/metrics"
	"tpsrace/probes"
)

// Snapshot is one provider's figures at a moment of the race. With several
// streams, per-user figures are medians across them.
type Snapshot struct {
	Status  Status
	Settled bool // every stream ended: the figures are metrics.Compute's and final

	// Every figure is metrics.SummaryOf's, the one aggregation bench and the
	// verdict read: of the streams so far while they run
	// (metrics.StreamSoFar), of the ended streams once settled.
	TTFT    time.Duration // median first text event
	HasTTFT bool
	TTFTMax time.Duration // the last stream's first text event (C > 1)
	Queued  int           // streams metrics.Queued counts as queued (C > 1)
	TTFA    time.Duration // median first answer event
	HasTTFA bool
	// Thinking: the streams' phases once settled (metrics.Summary's): the
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
	// streams running and completed (settled: metrics.Summary's).
	Speed    float64
	HasSpeed bool
	// AggregateTPS is metrics.AggregateTPS across the streams, once settled.
	AggregateTPS    float64
	HasAggregateTPS bool

	// Tokens is what one user got: output tokens (usage where reported
	// once a stream ends, else o200k so far), the median across every
	// stream, failed ones included (a failed lane says how far its streams
	// got); O200kTokens the same in o200k. Settled, both are metrics.Summary's.
	Tokens      int
	O200kTokens int
	TokenSource string // metrics.SourceUsage when every stream with tokens ended with usage
	// UserTokens is per-user o200k tokens so far counted per event (the
	// scale of metrics.TimeToTokens), the race track's and --finish-at's
	// count: the median across every stream (settled: metrics.Summary.EventTokens).
	UserTokens int

	Elapsed time.Duration // now while running; release to the end of the last stream once settled
	// Silent: while running, how long since the last event or tool-call
	// delta of the streams that have begun and not ended (0 when none
	// has): a provider that paused or hung mid-answer, which the lane
	// says rather than go on reading "streaming".
	Silent time.Duration

	CostUSD float64 // median cost of one request (metrics.Summary)
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
	// metrics.Summary's): "smooth", "bursty", "one burst", "2 stalls · 1.20s"; "" before;
	// Stalls is its stall count.
	// Flags: the referee's flags its streams raised by themselves
	// (metrics.StreamFlags), once settled, with their evidence
	// (metrics.Flags.Text: "" for none, a string keeps Snapshot comparable); once the whole
	// race has ended, every flag touching the provider (Referee.RunFlags),
	// with Load, tpsrace's own load, for the verdict. The lane marks them ⚑.
	Feel   string
	Stalls int
	Flags  string
	Load   *probes.ClientLoad
	// E2E is the median end-to-end time of the completed streams, once settled.
	E2E time.Duration
	// SLOMet of SLOStreams met the provider's SLO (metrics.Summary.Goodput,
	// over its ended streams); both 0 without an SLO.
	SLOMet, SLOStreams int

	// With --finish-at N (FinishAt > 0), TimeToN is the median time to N
	// tokens (metrics.TimeToTokens) over the streams that got there; see RaceTo.
	FinishAt   int
	TimeToN    time.Duration
	HasTimeToN bool

	// Metric and Rate: once settled under a workload one race can judge
	// (tool-call, json), metrics.Summary's Metric and Rate: what the
	// leaderboard ranks by and the verdict compares ("" otherwise; HasRate
	// false when there is none: no valid call or JSON).
	Metric  string
	Rate    float64
	HasRate bool

	// ToolFirst and ToolComplete are, under tool-call, metrics.Summary's
	// over the race's streams so far, a running stream's call as far as
	// it has come (metrics.ToolCallSoFar): the chart's timeline fills in
	// as calls arrive. Settled, they are the race's own.
	ToolFirst, ToolComplete metrics.Dist[time.Duration]

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

// Snapshot evaluates the provider at now (time since release): metrics.SummaryOf
// of its streams so far, the same function bench and the verdict read
// once they have ended, with what only a race in flight has (its status,
// the streams queued, the speed of the last second).
func (p *Lane) Snapshot(now time.Duration) Snapshot {
	streams, settled := p.streamsSoFar(0)
	run := metrics.SummaryOf(streams, 0)
	f := p.figuresOf(run)
	if settled {
		return p.settled(f, run)
	}
	f.Elapsed = now
	var ttfts []time.Duration
	waiting, begun := 0, false
	var heard time.Duration // the last event or delta of a running stream that has begun
	for i := range p.Streams {
		s := &p.Streams[i]
		first, hasText := s.Events.First()
		switch {
		case s.hasFirstAnswer || len(s.tools) > 0: // a tool call is the answer
			f.Status = Streaming
		case hasText && f.Status == Waiting:
			f.Status = Thinking
		}
		if hasText {
			ttfts = append(ttfts, first.At)
		} else if s.Result == nil {
			waiting++
		}
		if s.Result == nil && (hasText || len(s.tools) > 0) {
			begun = true
			if last, ok := s.Events.Last(); ok {
				heard = max(heard, last.At)
			}
			if n := len(s.tools); n > 0 {
				heard = max(heard, s.tools[n-1].At)
			}
		}
	}
	if begun {
		f.Silent = max(now-heard, 0)
	}
	if f.HasTTFT {
		f.Queued = metrics.Queued(ttfts, waiting, now)
	}
	f.NowTPS, f.NowAggregateTPS = p.liveAt(now)
	return f
}

// figuresOf are run's figures, in flight or settled.
func (p *Lane) figuresOf(run metrics.Summary) Snapshot {
	f := Snapshot{Streams: run.Streams, Failed: run.Failed, RateLimited: run.RateLimited,
		TTFT: run.TTFT.P50, HasTTFT: run.TTFT.Has(), TTFTMax: run.TTFT.Max, TTFA: run.TTFA.P50, HasTTFA: run.TTFA.Has(),
		Speed: run.Speed.P50, HasSpeed: run.Speed.Has(), AggregateTPS: run.AggregateTPS, HasAggregateTPS: run.HasAggregateTPS,
		Tokens: run.Tokens, O200kTokens: run.O200kTokens, UserTokens: run.EventTokens, TokenSource: run.TokenSource,
		CostUSD: run.CostUSD.P50, HasCost: run.CostUSD.Has(), ServerTPS: run.ServerTPS.P50, HasServerTPS: run.ServerTPS.Has(),
		ServerPromptTPS: run.ServerPromptTPS.P50, HasServerPromptTPS: run.ServerPromptTPS.Has(),
		SLOMet: run.Goodput.Met, SLOStreams: run.Goodput.Streams, ToolFirst: run.ToolFirst, ToolComplete: run.ToolComplete}
	f.Roofline, f.HasRoofline = metrics.MemoryRoofline(f.ServerTPS, f.HasServerTPS, p.box)
	for _, s := range p.Streams {
		if s.failed() && f.Err == nil {
			f.Err = s.Result.Err
		}
	}
	return f
}

// settled adds to f, the figures of run, p's streams once all have
// ended, what only an ended race has: its end, feel, flags, and the
// workload's figure to rank by.
func (p *Lane) settled(f Snapshot, run metrics.Summary) Snapshot {
	f.Settled, f.Status, f.Elapsed, f.E2E = true, Done, run.End, run.E2E.P50
	f.Feel, f.Stalls, f.Flags, f.Thinking = run.Felt.Label(), run.Felt.Stalls, p.flags(), run.RunPhases
	if run.Completed == 0 {
		f.Status = Failed
	}
	if run.ToolStreams > 0 || run.JSONStreams > 0 { // one race is a whole run of tool-call and json
		f.Metric, f.Rate, f.HasRate = workloadRate(run)
	}
	for _, s := range p.Streams {
		if probes.KindOf(s.Result.Err) == probes.KindTruncated {
			f.Lost++
		}
	}
	if ttfts := p.firstTokens(); len(ttfts) > 0 {
		f.Queued = metrics.Queued(ttfts, 0, run.End)
	}
	return f
}

// streamsSoFar are p's streams as package metrics reads them: an ended
// one's figures (metrics.StreamOf's, with the workload's), a running
// one's so far (metrics.StreamSoFar), each under p's SLO; settled once
// every one has ended. finishAt is --finish-at's N (0: none).
func (p *Lane) streamsSoFar(finishAt int) (streams []metrics.Stream, settled bool) {
	streams, settled = make([]metrics.Stream, len(p.Streams)), true
	for i := range p.Streams {
		s := &p.Streams[i]
		if s.Result == nil {
			streams[i], settled = metrics.StreamSoFar(s.Events, finishAt).JudgeSLO(p.slo), false
			if p.tool != nil { // the call as far as it has come: the timeline fills in live
				streams[i].Tool = s.toolCallSoFar(p.tool)
			}
			continue
		}
		streams[i].Figures, streams[i].EventTokens = s.Figures, s.tokens()
		streams[i].Tool, streams[i].JSON = s.toolCall, s.jsonAnswer
		streams[i].InputTokens = metrics.InputTokens(s.Result)
		if finishAt > 0 {
			streams[i].TimeToN, streams[i].ReachedN = metrics.TimeToTokens(s.Events, finishAt)
		}
		streams[i] = streams[i].JudgeSLO(p.slo)
	}
	return streams, settled
}

// MetricStreams are p's streams as package metrics reads them
// (streamsSoFar), once every one has ended (ok false before); finishAt is
// --finish-at's N (0: none).
func (p *Lane) MetricStreams(finishAt int) (streams []metrics.Stream, ok bool) {
	streams, ok = p.streamsSoFar(finishAt)
	if !ok {
		return nil, false
	}
	return streams, true
}

// Referee gives f, provider i's figures of race k of ref's races, once
// settled, every flag touching it (metrics.Referee.RunFlags) and
// tpsrace's own load during the race, which the verdict weighs them by.
func (f *Snapshot) Referee(ref metrics.Referee, k, i int) {
	if !f.Settled || k < 0 || k >= len(ref.Races) {
		return
	}
	f.Flags = ref.RunFlags(k, i).Text()
	if i < len(ref.Loads[k]) {
		f.Load = ref.Loads[k][i]
	}
}
