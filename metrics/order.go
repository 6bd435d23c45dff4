package metrics

import "math"

// Metric is what the verdict compares for this run: the workload's own
// figure (the time to a complete tool call, the prefill speed), else the
// time to N tokens with --finish-at N, else output speed.
func (r Summary) Metric() string {
	switch {
	case r.ToolStreams > 0:
		return ToolCallMetric
	case r.JSONStreams > 0:
		return JSONMetric
	case r.Warm:
		return WarmMetric
	case r.Turns > 0:
		return ConversationMetric
	case r.Sized > 0:
		return PrefillMetric
	case r.ByAnswer:
		return AnswerMetric
	case r.FinishAt > 0:
		return FinishMetric
	}
	return VerdictMetric
}

// Rate is what the verdict compares for this run (Metric), bigger is
// better: the median output speed; with --finish-at N, N ÷ the median time
// to N tokens; under tool-call, 1 ÷ the median time to a complete valid
// call; under long-context, the prefill estimate; under cached-prefix, 1 ÷
// the warm requests' median TTFT; under json, 1 ÷ the median time to
// valid JSON. NaN when the run has
// none: no stream completed (a provider that served no answer is in no
// verdict, whatever it streamed before failing), none reached N, no call
// was valid, no estimate could be made.
func (r Summary) Rate() float64 {
	if r.Completed == 0 {
		return math.NaN()
	}
	switch r.Metric() {
	case ToolCallMetric:
		if r.ToolComplete.Has() && r.ToolComplete.P50 > 0 {
			return 1 / r.ToolComplete.P50.Seconds()
		}
	case PrefillMetric:
		if r.HasPrefillTPS {
			return r.PrefillTPS
		}
	case WarmMetric:
		if r.TTFT.Has() && r.TTFT.P50 > 0 {
			return 1 / r.TTFT.P50.Seconds()
		}
	case AnswerMetric:
		if r.TTFA.Has() && r.TTFA.P50 > 0 {
			return 1 / r.TTFA.P50.Seconds()
		}
	case JSONMetric:
		if r.JSONValidAt.Has() && r.JSONValidAt.P50 > 0 {
			return 1 / r.JSONValidAt.P50.Seconds()
		}
	case ConversationMetric:
		if r.HasConversation && r.Conversation > 0 {
			return 1 / r.Conversation.Seconds()
		}
	case FinishMetric:
		if r.TimeToN.Has() {
			return float64(r.FinishAt) / r.TimeToN.P50.Seconds()
		}
	default:
		if r.Speed.Has() {
			return r.Speed.P50
		}
	}
	return math.NaN()
}

// workloadMetric reports whether m is a workload's own figure.
func workloadMetric(m string) bool {
	return m == ToolCallMetric || m == PrefillMetric || m == WarmMetric || m == JSONMetric || m == ConversationMetric || m == AnswerMetric
}

// Order ranks providers by their runs (one run each, or each one's streams
// pooled over runs), best first, and returns their indexes: by Rank, or
// with --finish-at by RankFinish. The dashboard's leaderboard ranks its
// figures by the same two functions.
func Order(runs []Summary) []int {
	if len(runs) > 0 && workloadMetric(runs[0].Metric()) {
		// The workload's figure, as a rate (bigger is better), in the place of speed.
		standings := make([]Standing, len(runs))
		for i, r := range runs {
			rate := r.Rate()
			standings[i] = Standing{Speed: rate, HasSpeed: !math.IsNaN(rate), TTFT: r.TTFT.P50, HasTTFT: r.TTFT.Has(), Failed: r.Completed == 0}
		}
		return Rank(standings)
	}
	if len(runs) > 0 && runs[0].FinishAt > 0 {
		standings := make([]Finish, len(runs))
		for i, r := range runs {
			standings[i] = Finish{Time: r.TimeToN.P50, Reached: r.TimeToN.Has(), Tokens: r.EventTokens, Failed: r.Completed == 0}
		}
		return RankFinish(standings)
	}
	standings := make([]Standing, len(runs))
	for i, r := range runs {
		standings[i] = Standing{Speed: r.Speed.P50, HasSpeed: r.Speed.Has(), TTFT: r.TTFT.P50, HasTTFT: r.TTFT.Has(), Failed: r.Completed == 0}
	}
	return Rank(standings)
}
