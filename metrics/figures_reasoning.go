package metrics

// ReasoningFigures are the figures of a race where some stream thought
// (Summary.RunPhases, docs/METRICS.md "Reasoning models"), after its
// workload's: the views show them only then (a race without thinking has
// no phases to tell apart).
func ReasoningFigures() []Figure {
	return []Figure{
		{Header: "TTFA", Name: "time to answer", Key: "ttfa_ms.p50", Gauge: "tpsrace_last_ttfa_seconds", Unit: Seconds,
			Help: "Release to the first answer token (the thinking phase's end), median over the streams with answer text.",
			Of:   func(wr WorkloadRuns) Reading { return dist(wr.All.TTFA) }},
		{Header: "think tok/s", Name: "thinking speed", Key: "thinking_tps.p50", Gauge: "tpsrace_last_thinking_tokens_per_second",
			Unit: TokensPerSecond, Better: HigherIsBetter,
			Help: "Thinking tokens over the thinking phase (hidden reasoning over the time to answer when none streamed), median over the completed streams.",
			Of:   func(wr WorkloadRuns) Reading { return speed(wr.All.ThinkingTPS) }},
		{Header: "answer tok/s", Name: "answer speed", Key: "answer_tps.p50", Gauge: "tpsrace_last_answer_tokens_per_second",
			Unit: TokensPerSecond, Better: HigherIsBetter,
			Help: "Answer tokens after the first answer event over the answer's window, median over the completed streams.",
			Of:   func(wr WorkloadRuns) Reading { return speed(wr.All.AnswerTPS) }},
		{Header: "hidden", Name: "hidden reasoning tokens", Key: "hidden_reasoning_tokens", Gauge: "tpsrace_last_hidden_reasoning_tokens",
			Unit: Tokens, Detail: true,
			Help: "Per user, tokens the provider reported but never streamed (the median over its streams); undefined where none thought.",
			Of: func(wr WorkloadRuns) Reading {
				return Reading{Value: float64(wr.All.HiddenReasoningTokens), OK: wr.All.Reasoned > 0}
			}},
	}
}
