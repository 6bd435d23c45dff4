package benchdoc

import (
	"math"
	"slices"
	"time"

	"tpsrace/metrics"
	"tpsrace/workload"
)

// Figures are each provider's figures over the document's races
// (metrics.WorkloadRunsOf), by provider index: what the views render
// through the workload's description (metrics.FiguresOf). A document read
// back from JSON computes them again, by the same function, from its
// streams (Summary.MetricStream).
func (b *Bench) Figures() []metrics.WorkloadRuns {
	if b.figures != nil {
		return b.figures
	}
	w, finishAt := b.WorkloadOf(), 0
	if b.FinishAt != nil {
		finishAt = *b.FinishAt
	}
	for _, p := range b.Providers {
		b.figures = append(b.figures, metrics.WorkloadRunsOf(w, p.Races(b.Runs), finishAt))
	}
	return b.figures
}

// Races are p's streams by race, as package metrics reads them: n races
// (the document's Runs), none for a race it was not in.
func (p Provider) Races(n int) [][]metrics.Stream {
	races := make([][]metrics.Stream, n)
	for _, r := range p.Streams {
		if r.Race >= 0 && r.Race < n {
			races[r.Race] = append(races[r.Race], r.MetricStream())
		}
	}
	return races
}

// UnderSLO is whether some provider raced under an SLO.
func (b *Bench) UnderSLO() bool {
	return slices.ContainsFunc(b.Providers, func(p Provider) bool { return p.Summary.Goodput != nil })
}

// WorkloadOf is what b raced: Build's workload, or, read back from JSON,
// the one its fields say (the sizes from its streams' input_tokens, a
// conversation's turns from races_per_run).
func (b *Bench) WorkloadOf() workload.Workload {
	if b.workload.Name != "" || b.Workload == "" {
		return b.workload
	}
	w, _ := workload.Named(b.Workload)
	w.Tool, w.Answer = b.Tool, b.Answer
	per := max(b.RacesPerRun, 1)
	switch {
	case w.Is(workload.LongContext), w.Is(workload.CachedPrefix):
		sizes := make([]int, per)
		for _, p := range b.Providers {
			for _, r := range p.Streams {
				if r.InputTokens != nil && sizes[r.Race%per] == 0 {
					sizes[r.Race%per] = *r.InputTokens
				}
			}
		}
		w.InputTokens = sizes
		if w.Is(workload.CachedPrefix) { // cold and warm: one size
			w.InputTokens = sizes[:1]
		}
	case w.Is(workload.MultiTurn):
		w.FollowUps = make([]string, per-1)
	}
	return w
}

// MetricStream is r as package metrics reads a stream (newRun's inverse, at the
// JSON's precision): what `report` and a document read back aggregate.
// The JSON keeps no per-event counts, so EventTokens is its o200k count.
func (r Stream) MetricStream() metrics.Stream {
	f := metrics.Figures{E2E: fromMS(r.E2Ems), OutputTokens: r.OutputTokens, TokenSource: r.TokenSource, O200kTokens: r.O200kTokens,
		Completed: r.OK, ContentChars: r.ContentChars, ReasoningChars: r.ReasoningChars,
		PromptTokens: r.PromptTokens, HasPromptTokens: r.PromptTokens > 0}
	f.TTFT, f.HasTTFT = optMS(r.TTFTms)
	f.TTFA, f.HasTTFA = optMS(r.TTFAms)
	f.OutputTPS, f.HasOutputTPS = opt(r.OutputTPS)
	f.CostUSD, f.HasCost = opt(r.CostUSD)
	f.ServerTPS, f.HasServerTPS = opt(r.ServerTPS)
	f.ServerPromptTPS, f.HasServerPromptTPS = opt(r.ServerPromptTPS)
	if r.CachedPromptTokens != nil {
		f.CachedPromptTokens, f.HasCachedPromptTokens = *r.CachedPromptTokens, true
	}
	f.Felt.Failed = !r.OK
	f.Phases = metrics.Phases{ThinkingTokens: r.ThinkingTokens, HiddenReasoningTokens: r.HiddenReasoningTokens,
		AnswerTokens: max(r.OutputTokens-r.ThinkingTokens, 0)}
	f.Phases.ThinkingTPS, f.Phases.HasThinkingTPS = opt(r.ThinkingTPS)
	f.Phases.AnswerTPS, f.Phases.HasAnswerTPS = opt(r.AnswerTPS)
	s := metrics.Stream{Figures: f, EventTokens: r.O200kTokens, UnderSLO: r.SLOMissed != nil, SLOMissed: r.SLOMissed}
	s.TimeToN, s.ReachedN = optMS(r.TimeToNms)
	if r.InputTokens != nil {
		s.InputTokens = *r.InputTokens
	}
	if t := r.ToolCall; t != nil {
		s.Tool = &metrics.ToolCall{Calls: t.Calls, ArgsTokens: t.ArgsTokens, Valid: t.Valid}
		s.Tool.First, _ = optMS(t.FirstMS)
		s.Tool.Complete, s.Tool.HasComplete = optMS(t.CompleteMS)
		s.Tool.ArgsTPS, s.Tool.HasArgsTPS = opt(t.ArgsTPS)
	}
	if j := r.JSON; j != nil {
		s.JSON = &metrics.JSONAnswer{Valid: j.Valid, PrefixShare: j.PrefixShare}
		s.JSON.First, s.JSON.HasFirst = optMS(j.FirstMS)
		s.JSON.ValidAt, s.JSON.HasValid = optMS(j.ValidMS)
	}
	return s
}

func fromMS(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}

func optMS(ms *float64) (time.Duration, bool) {
	if ms == nil {
		return 0, false
	}
	return fromMS(*ms), true
}

func opt(v *float64) (float64, bool) {
	if v == nil {
		return 0, false
	}
	return *v, true
}
