package metrics

import "tpsrace/workload"

// json: the answer must be JSON following a schema (JSONAnswerOf).
func init() {
	describe(Description{Workload: workload.JSON, Figures: func(workload.Workload) []Figure {
		return []Figure{
			{Header: "1st byte", Name: "time to the first answer text", Key: "json.first_ms.p50", Gauge: "tpsrace_last_json_first_seconds",
				Unit: Seconds, Help: "Release to the first answer text, median over the streams with answer text.",
				Of: func(wr WorkloadRuns) Reading { return dist(wr.Ranked.JSONFirst) }},
			{Header: "valid at", Name: "time to valid JSON", Key: "json.valid_ms.p50", Gauge: "tpsrace_last_json_valid_seconds",
				Unit: Seconds, Decides: true,
				Help: "Release to the event after which the answer parses and validates, median over the valid answers.",
				Of:   func(wr WorkloadRuns) Reading { return dist(wr.Ranked.JSONValidAt) }},
			{Header: "valid", Name: "valid answers", Key: "json.valid / json.streams", Gauge: "tpsrace_last_json_valid_ratio",
				Unit: Count, Better: HigherIsBetter, Help: "Streams whose answer was JSON matching the schema, of the streams.",
				Of: func(wr WorkloadRuns) Reading { return count(wr.Ranked.JSONValid, wr.Ranked.JSONStreams) }},
		}
	}})
}
