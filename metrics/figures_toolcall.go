package metrics

import "tpsrace/workload"

// tool-call: the request offers a function; the answer is a call to it
// (ToolCallOf), judged against its schema.
func init() {
	describe(Description{Workload: workload.ToolCall, Figures: func(workload.Workload) []Figure {
		return []Figure{
			{Header: "1st call", Name: "time to the first call", Key: "tool_call.first_ms.p50", Gauge: "tpsrace_last_tool_call_first_seconds",
				Unit: Seconds, Help: "Release to the first tool-call delta, median over the streams that made a call.",
				Of: func(wr WorkloadRuns) Reading { return dist(wr.Ranked.ToolFirst) }},
			{Header: "complete", Name: "time to a complete call", Key: "tool_call.complete_ms.p50", Gauge: "tpsrace_last_tool_call_complete_seconds",
				Unit: Seconds, Decides: true,
				Help: "Release to the delta after which every call's arguments parse and validate, median over the valid calls.",
				Of:   func(wr WorkloadRuns) Reading { return dist(wr.Ranked.ToolComplete) }},
			{Header: "args tok/s", Name: "arguments' speed", Key: "tool_call.args_tps.p50", Gauge: "tpsrace_last_tool_call_args_tokens_per_second",
				Unit: TokensPerSecond, Better: HigherIsBetter, Detail: true,
				Help: "o200k tokens of the arguments after their first fragment ÷ the time since it; undefined for a call sent whole.",
				Of:   func(wr WorkloadRuns) Reading { return speed(wr.Ranked.ArgsTPS) }},
			{Header: "valid", Name: "valid calls", Key: "tool_call.valid / tool_call.streams", Gauge: "tpsrace_last_tool_call_valid_ratio",
				Unit: Count, Better: HigherIsBetter, Help: "Streams whose call named the function with arguments that validate, of the streams.",
				Of: func(wr WorkloadRuns) Reading { return count(wr.Ranked.ToolValid, wr.Ranked.ToolStreams) }},
		}
	}, NoText: true})
}
