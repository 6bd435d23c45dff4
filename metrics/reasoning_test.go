package metrics

import (
	"math"
	"strings"
	"testing"
	"time"

	"tpsrace/probes"
	"tpsrace/tokens"
)

// answerAt is n one-token answer events at tps, the first at start.
func answerAt(start time.Duration, n int, tps float64) []probes.Event {
	var out []probes.Event
	for i := range n {
		out = append(out, ev(start+time.Duration(float64(i)/tps*float64(time.Second)), " w", 1))
	}
	return out
}

func near(got, want float64) bool { return math.Abs(got-want) < 1e-6*want }

// The case: 100 tokens thought silently at 100 tok/s, then 50
// answer tokens streamed at 100 tok/s; usage says 150, 100 of them
// reasoning. Dividing all 150 by the visible window read 304.
func TestHiddenReasoningIsNotDividedByTheVisibleWindow(t *testing.T) {
	r := &probes.Result{
		Events: probes.EventsOf(answerAt(time.Second, 50, 100)...),
		Usage:  &probes.Usage{PromptTokens: 10, CompletionTokens: 150, ReasoningTokens: 100, TotalTokens: 160},
		End:    1500 * ms,
	}
	f := Compute(r, 0)
	if f.HiddenReasoningTokens != 100 || f.ThinkingTokens != 100 || f.AnswerTokens != 50 {
		t.Errorf("hidden %d, thinking %d, answer %d tokens; want 100, 100, 50", f.HiddenReasoningTokens, f.ThinkingTokens, f.AnswerTokens)
	}
	if f.OutputTokens != 150 {
		t.Errorf("output tokens %d, want 150 (hidden reasoning is billed)", f.OutputTokens)
	}
	for name, got := range map[string]float64{"output_tps": f.OutputTPS, "answer_tps": f.AnswerTPS, "thinking_tps": f.ThinkingTPS} {
		if !near(got, 100) {
			t.Errorf("%s = %.2f, want 100", name, got)
		}
	}
	if !f.HasThinkingTPS || !f.HasAnswerTPS || !f.HasOutputTPS {
		t.Errorf("speeds undefined: %+v", f.Phases)
	}
	if f.TokensPerEvent != 1 {
		t.Errorf("tokens per event %v, want 1 (hidden tokens rode no event)", f.TokensPerEvent)
	}
}

// A provider that says nothing of reasoning but reports three times what it
// streamed decoded the difference unseen.
func TestHiddenReasoningWithoutReasoningTokens(t *testing.T) {
	r := &probes.Result{Events: probes.EventsOf(answerAt(time.Second, 50, 100)...),
		Usage: &probes.Usage{CompletionTokens: 150}, End: 1500 * ms}
	f := Compute(r, 0)
	if f.HiddenReasoningTokens != 100 || !near(f.OutputTPS, 100) || !near(f.ThinkingTPS, 100) {
		t.Errorf("hidden %d, output %.2f, thinking %.2f tok/s; want 100, 100, 100", f.HiddenReasoningTokens, f.OutputTPS, f.ThinkingTPS)
	}
}

// A tokenizer that counts 20% more than o200k hides nothing, and the
// figures of a stream that did not reason are what they were.
func TestTokenizerDifferenceIsNotHidden(t *testing.T) {
	r := &probes.Result{Events: probes.EventsOf(answerAt(100*ms, 50, 100)...),
		Usage: &probes.Usage{CompletionTokens: 60}, End: 600 * ms}
	f := Compute(r, 0)
	if f.HiddenReasoningTokens != 0 || f.Phases.Reasons() || f.HasThinkingTPS {
		t.Errorf("phases %+v, want no thinking", f.Phases)
	}
	if want := 59 / 0.49; !near(f.OutputTPS, want) || !near(f.AnswerTPS, want) {
		t.Errorf("output %.2f, answer %.2f tok/s; want both %.2f", f.OutputTPS, f.AnswerTPS, want)
	}
}

// Streamed reasoning is thinking, not hidden: the thinking window runs
// from the first reasoning event to the first answer event.
func TestStreamedReasoningPhases(t *testing.T) {
	var events []probes.Event
	for i := range 40 { // 40 reasoning tokens at 200 tok/s from 100 ms
		events = append(events, probes.Event{At: 100*ms + time.Duration(i)*5*ms, Reasoning: " r", Tokens: 1})
	}
	events = append(events, answerAt(300*ms, 20, 50)...) // 20 answer tokens at 50 tok/s
	r := &probes.Result{Events: probes.EventsOf(events...),
		Usage: &probes.Usage{CompletionTokens: 60, ReasoningTokens: 40}, End: 700 * ms}
	f := Compute(r, 0)
	if f.HiddenReasoningTokens != 0 || f.ThinkingTokens != 40 || f.AnswerTokens != 20 {
		t.Errorf("hidden %d, thinking %d, answer %d; want 0, 40, 20", f.HiddenReasoningTokens, f.ThinkingTokens, f.AnswerTokens)
	}
	if want := 39 / 0.2; !near(f.ThinkingTPS, want) {
		t.Errorf("thinking %.2f tok/s, want %.2f", f.ThinkingTPS, want)
	}
	if !near(f.AnswerTPS, 50) {
		t.Errorf("answer %.2f tok/s, want 50", f.AnswerTPS)
	}
	if want := 59 / (680*ms - 100*ms).Seconds(); !near(f.OutputTPS, want) {
		t.Errorf("output %.2f tok/s, want %.2f (unchanged: nothing hidden)", f.OutputTPS, want)
	}
}

func TestHiddenReasoning(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		u                           *probes.Usage
		streamedReasoning, streamed int
		want                        int
	}{
		{"no usage", nil, 0, 50, 0},
		{"all reasoning hidden", &probes.Usage{CompletionTokens: 150, ReasoningTokens: 100}, 0, 50, 100},
		{"reasoning streamed, another tokenizer", &probes.Usage{CompletionTokens: 250, ReasoningTokens: 200}, 180, 230, 0},
		{"a summary of the reasoning streamed", &probes.Usage{CompletionTokens: 550, ReasoningTokens: 500}, 100, 150, 400},
		{"no reasoning_tokens, within the slack", &probes.Usage{CompletionTokens: 70}, 0, 50, 0},
		{"no reasoning_tokens, three times what streamed", &probes.Usage{CompletionTokens: 150}, 0, 50, 100},
		{"nothing streamed", &probes.Usage{CompletionTokens: 30, ReasoningTokens: 30}, 0, 0, 30},
	} {
		if got := HiddenReasoning(tc.u, tc.streamedReasoning, tc.streamed); got != tc.want {
			t.Errorf("%s: %d hidden, want %d", tc.name, got, tc.want)
		}
	}
}

func TestRunPhasesOf(t *testing.T) {
	hidden := &probes.Result{Events: probes.EventsOf(answerAt(time.Second, 50, 100)...),
		Usage: &probes.Usage{CompletionTokens: 150, ReasoningTokens: 100}, End: 1500 * ms}
	plain := &probes.Result{Events: probes.EventsOf(answerAt(100*ms, 50, 200)...), End: 400 * ms}
	run := SummaryOf([]Stream{StreamOf(hidden, 0, 0), StreamOf(hidden, 0, 0), StreamOf(plain, 0, 0)}, 0)
	if run.Reasoned != 2 || !run.Reasons() || run.HiddenReasoningTokens != 100 || run.ThinkingTokens != 100 {
		t.Errorf("reasoned %d, hidden %d, thinking %d per user; want 2, 100, 100", run.Reasoned, run.HiddenReasoningTokens, run.ThinkingTokens)
	}
	if run.ThinkingTPS.N != 2 || !near(run.ThinkingTPS.P50, 100) || run.AnswerTPS.N != 3 || !near(run.AnswerTPS.P50, 100) {
		t.Errorf("thinking %+v, answer %+v; want 100 over 2 and 100 (the median) over 3", run.ThinkingTPS, run.AnswerTPS)
	}
}

func TestByAnswerRanksAReasoningRaceByTimeToAnswer(t *testing.T) {
	thinker := func(think time.Duration) Summary {
		r := &probes.Result{Events: probes.EventsOf(answerAt(think, 50, 100)...),
			Usage: &probes.Usage{CompletionTokens: 150, ReasoningTokens: 100}, End: think + 500*ms}
		return SummaryOf([]Stream{StreamOf(r, 0, 0)}, 0)
	}
	fast := &probes.Result{Events: probes.EventsOf(answerAt(100*ms, 50, 200)...), End: 400 * ms}
	plain := SummaryOf([]Stream{StreamOf(fast, 0, 0)}, 0)

	mixed := []Summary{thinker(time.Second), plain}
	if ByAnswer(mixed) || mixed[0].Metric() != VerdictMetric {
		t.Errorf("a race with a model that does not think ranks by %s, want output speed", mixed[0].Metric())
	}
	// Both decode at 100 tok/s; the one that thought 2 s answers later.
	slow, quick := []Summary{thinker(2 * time.Second)}, []Summary{thinker(time.Second)}
	if !ByAnswer(slow, quick) || slow[0].Metric() != AnswerMetric || quick[0].Metric() != AnswerMetric {
		t.Fatalf("a race of reasoning models ranks by %s, want %s", slow[0].Metric(), AnswerMetric)
	}
	if order := Order([]Summary{slow[0], quick[0]}); order[0] != 1 {
		t.Errorf("order %v, want the quicker answer first", order)
	}
	if v := Decide([]Contender{ContenderOf("quick", quick), ContenderOf("slow", slow)}, 0); !strings.Contains(v.Text(), "to the answer (1.00s vs 2.00s)") {
		t.Errorf("verdict %q, want the times to answer", v.Text())
	}
}

// A tool call's arguments are streamed output: a provider's
// completion_tokens that count them is no hidden thinking.
func TestToolCallIsNotHiddenReasoning(t *testing.T) {
	args := `{"city":"Paris","unit":"celsius"}`
	r := &probes.Result{ToolDeltas: []probes.ToolDelta{{At: 100 * ms, Name: "get_weather"}, {At: 120 * ms, Arguments: args}},
		Usage: &probes.Usage{CompletionTokens: tokens.Count("get_weather" + args)}, End: 150 * ms}
	if f := Compute(r, 0); f.HiddenReasoningTokens != 0 {
		t.Errorf("a tool call's %d tokens counted as %d hidden", r.Usage.CompletionTokens, f.HiddenReasoningTokens)
	}
}
