package metrics

import "testing"

// A workload's verdict of one run, with no winner, with no one to compare,
// and with two: each says the workload's own figure. Speeds are rates (per
// second): 10 a second reads as 100ms.
func TestWorkloadVerdictText(t *testing.T) {
	for _, tc := range []struct {
		metric, none, alone, two string
	}{
		{ToolCallMetric, "no provider made a valid tool call", "a completed a valid tool call in 100ms",
			"a is 2.0× faster than b to a complete tool call (100ms vs 200ms)"},
		{JSONMetric, "no provider answered valid JSON", "a answered valid JSON in 100ms",
			"a is 2.0× faster than b to valid JSON (100ms vs 200ms)"},
		{WarmMetric, "no warm request got a token", "a's warm TTFT is 100ms",
			"a is 2.0× faster than b to a warm first token (100ms vs 200ms)"},
		{ConversationMetric, "no provider finished the conversation", "a finished the conversation in 100ms",
			"a is 2.0× faster than b over the conversation (100ms vs 200ms)"},
		{PrefillMetric, "no prefill estimate: TTFT did not grow with the input", "a prefills at ≈ 10.0 tok/s",
			"a is 2.0× faster than b at prefill (≈ 10.0 vs 5.00 tok/s)"},
	} {
		if got := (Verdict{Metric: tc.metric}).Text(); got != tc.none {
			t.Errorf("%s, no winner: %q, want %q", tc.metric, got, tc.none)
		}
		if got := (Verdict{Metric: tc.metric, Winner: "a", WinnerSpeed: 10}).Text(); got != tc.alone {
			t.Errorf("%s, alone: %q, want %q", tc.metric, got, tc.alone)
		}
		two := Verdict{Metric: tc.metric, Winner: "a", RunnerUp: "b", Runs: 1, Ratio: 2, WinnerSpeed: 10, RunnerUpSpeed: 5}
		if got := two.Text(); got != tc.two {
			t.Errorf("%s, one run of two: %q, want %q", tc.metric, got, tc.two)
		}
	}
}

// One race cannot separate two providers within 1% (LevelWithin): the
// verdict calls them level, in the figure it compares; 1% apart or more,
// one is faster.
func TestOneRaceLevel(t *testing.T) {
	for _, tc := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Metric: VerdictMetric, Winner: "a", RunnerUp: "b", Runs: 1, Ratio: 801.0 / 797, WinnerSpeed: 801, RunnerUpSpeed: 797},
			"a and b are level (801 vs 797 tok/s; within 1%, one race cannot separate them)"},
		{Verdict{Metric: VerdictMetric, Winner: "a", RunnerUp: "b", Runs: 1, Ratio: 808.0 / 800, WinnerSpeed: 808, RunnerUpSpeed: 800},
			"a is 1.01× faster than b (808 vs 800 tok/s)"},
		{Verdict{Metric: FinishMetric, FinishAt: 20, Winner: "a", RunnerUp: "b", Runs: 1, Ratio: 1.005, WinnerSpeed: 10.05, RunnerUpSpeed: 10},
			"a and b are level to 20 tokens (1.99s vs 2.00s; within 1%, one race cannot separate them)"},
		{Verdict{Metric: ToolCallMetric, Winner: "a", RunnerUp: "b", Runs: 1, Ratio: 1.005, WinnerSpeed: 10.05, RunnerUpSpeed: 10},
			"a and b are level to a complete tool call (100ms vs 100ms; within 1%, one race cannot separate them)"},
	} {
		if got := tc.v.Text(); got != tc.want {
			t.Errorf("ratio %.4f: %q, want %q", tc.v.Ratio, got, tc.want)
		}
	}
}

func TestStopText(t *testing.T) {
	for _, c := range []struct {
		stop Stop
		want string
	}{
		{Stop{Runs: 3, Planned: 20}, "interrupted after 3/20 runs"},
		{Stop{Runs: 4, Planned: 20, Cut: true}, "interrupted in run 4/20"},
		{Stop{Runs: 1}, "interrupted after 1 run"},
		{Stop{Runs: 2, Cut: true}, "interrupted in run 2"},
	} {
		if got := c.stop.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.stop, got, c.want)
		}
	}
}
