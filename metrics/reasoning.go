package metrics

import (
	"strings"
	"time"

	"tpsrace/probes"
	"tpsrace/tokens"
)

// TokenizerSlack is how far a provider's token count may exceed the o200k
// count of what it streamed before the difference counts as hidden
// reasoning: tokenizers in use count English text within about 1.3× of
// o200k, so a provider that reports 1.5× what it streamed, or more,
// decoded tokens the client never saw.
const TokenizerSlack = 1.5

// Phases are a stream's two phases, each with its own tokens and speed:
// thinking, from release to the first answer (content) text, and answering,
// from the first answer text to the last. The thinking phase's duration is
// TTFA; a stream that did not reason has no thinking tokens.
type Phases struct {
	// ThinkingTokens: the provider's usage reasoning_tokens when it
	// reported them, else the hidden reasoning plus the o200k count of the
	// streamed reasoning.
	ThinkingTokens int
	// HiddenReasoningTokens: thinking the provider counts but never
	// streamed (HiddenReasoning). They are in OutputTokens (they are
	// billed) and in ThinkingTPS, never in OutputTPS or AnswerTPS.
	HiddenReasoningTokens int
	// AnswerTokens: OutputTokens − ThinkingTokens.
	AnswerTokens int

	// ThinkingTPS: the thinking tokens after the first reasoning event,
	// divided by the time from that event to the first answer event (to
	// the last reasoning event without an answer). With no reasoning
	// streamed (all of it hidden) the window opens at release, so it
	// includes the wait for the server and the prompt's prefill: a lower
	// bound on the decode speed. Undefined without thinking tokens.
	ThinkingTPS    float64
	HasThinkingTPS bool
	// AnswerTPS: the answer tokens after the first answer event, divided by
	// the time from the first answer event to the last; undefined with
	// fewer than two answer events.
	AnswerTPS    float64
	HasAnswerTPS bool
}

// Reasons is whether the stream thought: reasoning streamed or hidden.
func (p Phases) Reasons() bool { return p.ThinkingTokens > 0 }

// streamedText is the o200k tokens a stream sent as reasoning only and as
// answer (an event carrying both counts as answer), with the events that
// bound the two phases (their timing).
type streamedText struct {
	reasoning, answer             int
	firstReasoning, lastReasoning probes.Event
	hasReasoning                  bool
	firstAnswer, lastAnswer       probes.Event
	answerEvents                  int
}

// add reads the next event.
func (s *streamedText) add(e *probes.Event) {
	if e.Content == "" {
		s.reasoning += e.Tokens
		if !s.hasReasoning {
			s.firstReasoning, s.hasReasoning = timing(e), true
		}
		s.lastReasoning = timing(e)
		return
	}
	s.answer += e.Tokens
	if s.answerEvents == 0 {
		s.firstAnswer = timing(e)
	}
	s.lastAnswer = timing(e)
	s.answerEvents++
}

// HiddenReasoning is how many of the tokens u reports were never streamed,
// given the o200k counts of the streamed reasoning and of all streamed
// text. With usage's reasoning_tokens the comparison is with the streamed
// reasoning; without, with all the streamed text (completion_tokens, which
// usage normalised to include reasoning a provider left out of it). A
// count within TokenizerSlack of what streamed is a tokenizer's difference,
// not hidden thinking: 0. 0 without usage.
func HiddenReasoning(u *probes.Usage, streamedReasoning, streamed int) int {
	if u == nil || u.CompletionTokens == 0 {
		return 0
	}
	reported, seen := u.CompletionTokens, streamed
	if u.ReasoningTokens > 0 {
		reported, seen = u.ReasoningTokens, streamedReasoning
	}
	if float64(reported) < TokenizerSlack*float64(seen) || reported <= seen {
		return 0
	}
	return reported - seen
}

// toolCallTokens is the o200k count of r's tool calls as they streamed
// (each function's name and arguments): output that is neither answer nor
// reasoning text.
func toolCallTokens(r *probes.Result) int {
	var sb strings.Builder
	for _, d := range r.ToolDeltas {
		sb.WriteString(d.Name + d.Arguments)
	}
	return tokens.Count(sb.String())
}

// phasesOf splits r's outputTokens (Figures.OutputTokens) into its phases,
// given s, every event of r added (Compute's walk); end is the stream's
// E2E, the thinking window's end when nothing streamed.
func phasesOf(r *probes.Result, s *streamedText, outputTokens int, end time.Duration) Phases {
	var p Phases
	// A tool call's arguments streamed too: counted, they are not hidden thinking.
	p.HiddenReasoningTokens = HiddenReasoning(r.Usage, s.reasoning, s.reasoning+s.answer+toolCallTokens(r))
	p.ThinkingTokens = p.HiddenReasoningTokens + s.reasoning
	if r.Usage != nil && r.Usage.ReasoningTokens > 0 {
		p.ThinkingTokens = r.Usage.ReasoningTokens
	}
	p.AnswerTokens = max(outputTokens-p.ThinkingTokens, 0)
	p.ThinkingTPS, p.HasThinkingTPS = s.thinkingTPS(p.ThinkingTokens, end)
	if s.answerEvents >= 2 {
		p.AnswerTPS, p.HasAnswerTPS = OutputTPS(p.AnswerTokens, s.firstAnswer, s.lastAnswer)
	}
	return p
}

// thinkingTPS is Phases.ThinkingTPS of thinking tokens.
func (s streamedText) thinkingTPS(thinking int, end time.Duration) (float64, bool) {
	if thinking == 0 {
		return 0, false
	}
	from := probes.Event{} // release, nothing streamed yet
	if s.hasReasoning {
		from = s.firstReasoning
	}
	to := probes.Event{At: end}
	switch {
	case s.answerEvents > 0:
		to = s.firstAnswer
	case s.hasReasoning:
		to = s.lastReasoning
	}
	return OutputTPS(thinking, from, to)
}

// RunPhases are the phases over a provider's streams (SummaryOf): ThinkingTPS
// and AnswerTPS over the completed streams that defined them, as Speed is;
// ThinkingTokens and HiddenReasoningTokens per user, the median over every
// stream, as Tokens is; Reasoned counts the streams that thought.
type RunPhases struct {
	ThinkingTPS, AnswerTPS                Dist[float64]
	ThinkingTokens, HiddenReasoningTokens int
	Reasoned                              int
}

// Reasons is whether some stream of the run thought.
func (r RunPhases) Reasons() bool { return r.Reasoned > 0 }

// RunPhasesOf is the RunPhases of streams.
func RunPhasesOf(streams []Stream) RunPhases {
	var r RunPhases
	var thinkingTPS, answerTPS, thinking, hidden []float64
	for _, s := range streams {
		thinking = append(thinking, float64(s.ThinkingTokens))
		hidden = append(hidden, float64(s.HiddenReasoningTokens))
		if s.Phases.Reasons() {
			r.Reasoned++
		}
		if !s.Completed {
			continue
		}
		if s.HasThinkingTPS {
			thinkingTPS = append(thinkingTPS, s.ThinkingTPS)
		}
		if s.HasAnswerTPS {
			answerTPS = append(answerTPS, s.AnswerTPS)
		}
	}
	r.ThinkingTPS, r.AnswerTPS = DistOf(thinkingTPS), DistOf(answerTPS)
	r.ThinkingTokens, r.HiddenReasoningTokens = RoundedMedian(thinking), RoundedMedian(hidden)
	return r
}

// ByAnswer makes a race of reasoning models compare time to answer (TTFA):
// when every provider that completed a stream thought (Phases.Reasons), it
// sets Run.ByAnswer on each of runs, every provider's runs, and says so.
// A reasoning model's user waits for the thinking and then reads the
// answer, so who answers first is the race; a race with one model that
// does not think keeps output speed (its TTFA would win by not thinking),
// as do a workload's own figure and --finish-at.
func ByAnswer(runs ...[]Summary) bool {
	reasons := false
	for _, provider := range runs {
		for _, r := range provider {
			if m := r.Metric(); m != VerdictMetric && m != AnswerMetric { // a workload's figure, --finish-at
				return false
			}
			if r.Completed > 0 && !r.Reasons() {
				return false
			}
			reasons = reasons || r.Reasons()
		}
	}
	if !reasons {
		return false
	}
	for _, provider := range runs {
		for i := range provider {
			provider[i].ByAnswer = true
		}
	}
	return true
}
