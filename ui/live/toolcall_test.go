package live

import (
	"strings"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/workload"
)

// A tool-call lane's text is the call filling in, always by appending,
// then whether it was valid.
func TestLaneShowsTheCallFillingIn(t *testing.T) {
	fn, err := workload.DefaultTool().Compile()
	if err != nil {
		t.Fatal(err)
	}
	deltas := []probes.ToolDelta{{At: 10 * ms, Name: "get_weather", Arguments: ""}, {At: 20 * ms, Arguments: `{"city":"Par`}, {At: 30 * ms, Arguments: `is"}`}}
	for _, tc := range []struct {
		name    string
		deltas  []probes.ToolDelta
		text    string
		partial string
		want    string
	}{
		{"valid", deltas, "", `⚙ get_weather({"city":"Par`, `⚙ get_weather({"city":"Paris"}) ✓ valid`},
		{"invalid", deltas[:2], "", `⚙ get_weather({"city":"Par`, `⚙ get_weather({"city":"Par) ✗ arguments are not JSON`},
		{"text instead", nil, "It is sunny.", "It is sunny.", "It is sunny.\n ✗ no tool call: answered in text"},
	} {
		p := NewLane(0, config.Provider{Name: "p"}, 1, 10)
		p.OfferTool(fn)
		res := &probes.Result{FinishReason: "stop", End: 50 * ms}
		if tc.text != "" {
			e := probes.Event{At: 5 * ms, Content: tc.text, Tokens: 4}
			p.Record(probes.Update{Event: &e})
			res.Events = probes.EventsOf(e)
		}
		for i := range tc.deltas[:min(2, len(tc.deltas))] {
			p.Record(probes.Update{Tool: &tc.deltas[i]})
		}
		if got := p.Answer(); got != tc.partial {
			t.Errorf("%s: while streaming %q, want %q", tc.name, got, tc.partial)
		}
		res.ToolDeltas = tc.deltas
		p.Record(probes.Update{Done: res})
		got := p.Answer()
		if got != tc.want || !strings.HasPrefix(got, tc.partial) {
			t.Errorf("%s: settled %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A json lane's text is the answer, then whether it was valid JSON.
func TestLaneMarksJSONAnswers(t *testing.T) {
	schema, err := workload.DefaultAnswer().Compile()
	if err != nil {
		t.Fatal(err)
	}
	for answer, want := range map[string]string{
		`{"city":"Paris","temperature_c":21,"conditions":"sunny"}`: " ✓ valid JSON",
		"```json\n{}\n```": " ✗ the answer is not JSON",
	} {
		p := NewLane(0, config.Provider{Name: "p"}, 1, 10)
		p.AskJSON(schema)
		e := probes.Event{At: 5 * ms, Content: answer, Tokens: 9}
		p.Record(probes.Update{Event: &e})
		if got := p.Answer(); got != answer {
			t.Errorf("while streaming %q", got)
		}
		p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(e), FinishReason: "stop", End: 9 * ms}})
		if got := p.Answer(); got != answer+want {
			t.Errorf("settled %q, want %q", got, answer+want)
		}
	}
}
