package lane

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/ui/live"
)

// A model that thought 100 tokens unseen for 1s, then answered 50 words:
// the lane says how long it thought and that the thinking was hidden.
func TestHiddenThinkingNote(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "sim-silent", Model: "sim:ttft=0,rfield=hidden"}, 1, 12)
	var events []probes.Event
	for i := range 50 {
		events = append(events, probes.Event{At: time.Second + time.Duration(i)*10*ms, Content: " w" + strconv.Itoa(i), Tokens: 1})
	}
	p.Record(probes.Update{Events: probes.EventsOf(events...)})
	p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(events...), End: 1500 * ms,
		Usage: &probes.Usage{CompletionTokens: 150, ReasoningTokens: 100}}})
	v := flat(view(p, 60, 12, 0))
	for _, want := range []string{"thought 1.00s · 100 tokens hidden", "speed 100 tok/s", "w49"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in %s", want, v)
		}
	}
}

// A reasoning model that spent max_tokens thinking gave no answer: the
// lane says so, and why, whether the thinking was hidden or streamed.
func TestNoAnswerSaysWhy(t *testing.T) {
	hidden := live.NewLane(0, config.Provider{Name: "o3-mini", Model: "o3-mini"}, 1, 12)
	hidden.Record(probes.Update{Done: &probes.Result{End: 300 * ms, FinishReason: "length",
		Usage: &probes.Usage{CompletionTokens: 100, ReasoningTokens: 100}}})
	var thinking []probes.Event
	for i := range 30 {
		thinking = append(thinking, probes.Event{At: 50*ms + time.Duration(i)*ms, Reasoning: " r" + strconv.Itoa(i), Tokens: 1})
	}
	streamed := live.NewLane(1, config.Provider{Name: "deepseek-r1", Model: "deepseek-reasoner"}, 1, 12)
	streamed.Record(probes.Update{Events: probes.EventsOf(thinking...)})
	streamed.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(thinking...), End: 300 * ms, FinishReason: "length"}})
	empty := live.NewLane(2, config.Provider{Name: "empty", Model: "m"}, 1, 12)
	empty.Record(probes.Update{Done: &probes.Result{End: 300 * ms, FinishReason: "stop"}})
	for _, tc := range []struct {
		lane *live.Lane
		want string
	}{
		{hidden, "(no answer: 100 tokens of hidden thinking used up max_tokens)"},
		{streamed, "(no answer: 30 tokens of thinking used up max_tokens)"},
		{empty, "(no text)"},
	} {
		if v := flat(view(tc.lane, 80, 12, 0)); !strings.Contains(v, tc.want) {
			t.Errorf("no %q in %s", tc.want, v)
		}
	}
}
