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
