package benchdoc

import "tpsrace/metrics"

// Thinking is a stream's two phases (metrics.Phases): thinking_tokens
// (usage's reasoning_tokens, else the streamed reasoning's o200k count,
// plus any hidden), hidden_reasoning_tokens (reported but never streamed;
// in output_tokens, not in output_tps), thinking_tps (null without
// thinking) and answer_tps (null under two answer events).
type Thinking struct {
	ThinkingTokens        int      `json:"thinking_tokens"`
	HiddenReasoningTokens int      `json:"hidden_reasoning_tokens"`
	ThinkingTPS           *float64 `json:"thinking_tps"`
	AnswerTPS             *float64 `json:"answer_tps"`
}

func thinkingOf(p metrics.Phases) Thinking {
	t := Thinking{ThinkingTokens: p.ThinkingTokens, HiddenReasoningTokens: p.HiddenReasoningTokens}
	if p.HasThinkingTPS {
		t.ThinkingTPS = ptr(tps(p.ThinkingTPS))
	}
	if p.HasAnswerTPS {
		t.AnswerTPS = ptr(tps(p.AnswerTPS))
	}
	return t
}

// ThinkingSummary is the phases over a provider's streams (metrics.RunPhases):
// ttfa_ms over the streams with answer text; thinking_tps and answer_tps
// over the completed streams that defined them; thinking_tokens and
// hidden_reasoning_tokens per user (the median over every stream);
// reasoned, how many streams thought.
type ThinkingSummary struct {
	TTFAms                Percentiles2 `json:"ttfa_ms"`
	ThinkingTPS           Percentiles2 `json:"thinking_tps"`
	AnswerTPS             Percentiles2 `json:"answer_tps"`
	ThinkingTokens        int          `json:"thinking_tokens"`
	HiddenReasoningTokens int          `json:"hidden_reasoning_tokens"`
	Reasoned              int          `json:"reasoned"`
}

func thinkingSummary(r metrics.Summary) ThinkingSummary {
	return ThinkingSummary{TTFAms: durations(r.TTFA), ThinkingTPS: speeds(r.ThinkingTPS), AnswerTPS: speeds(r.AnswerTPS),
		ThinkingTokens: r.ThinkingTokens, HiddenReasoningTokens: r.HiddenReasoningTokens, Reasoned: r.Reasoned}
}

// Reasoned is whether some stream of b thought: the views show the
// thinking figures only then.
func (b *Bench) Reasoned() bool {
	for _, p := range b.Providers {
		if p.Summary.Reasoned > 0 {
			return true
		}
	}
	return false
}
