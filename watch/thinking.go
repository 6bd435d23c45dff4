package watch

import "tpsrace/benchdoc"

// thinkingGauges name a reasoning race's figures (metrics.Phases) exported
// as gauges, with their help: set only by a run where some stream thought.
var thinkingGauges = []struct{ name, help string }{
	{"tpsrace_last_ttfa_seconds", "Reasoning: median time to the first answer token of the provider's last run (the thinking phase's end)."},
	{"tpsrace_last_thinking_tokens_per_second", "Reasoning: median thinking speed of the last run's completed streams (hidden reasoning over the time to answer when none streamed)."},
	{"tpsrace_last_answer_tokens_per_second", "Reasoning: median answer speed of the last run's completed streams (answer tokens after the first answer event / its window)."},
	{"tpsrace_last_hidden_reasoning_tokens", "Reasoning: per user, tokens the provider reported but never streamed on the last run (median over its streams)."},
}

// thinkingFigures are a provider's thinking gauges from its summary, by
// name; none where no stream of the run thought.
func thinkingFigures(s benchdoc.Summary) map[string]*float64 {
	if s.Reasoned == 0 {
		return nil
	}
	var ttfa *float64
	if s.TTFAms.P50 != nil {
		ttfa = ptr(*s.TTFAms.P50 / 1000)
	}
	return map[string]*float64{
		"tpsrace_last_ttfa_seconds":               ttfa,
		"tpsrace_last_thinking_tokens_per_second": s.ThinkingTPS.P50,
		"tpsrace_last_answer_tokens_per_second":   s.AnswerTPS.P50,
		"tpsrace_last_hidden_reasoning_tokens":    ptr(float64(s.HiddenReasoningTokens)),
	}
}
