package live

import (
	"strings"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/workload"
)

// A tool-call lane's text is the call filling in, its arguments indented,
// always by appending, then whether it was valid.
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
		{"valid", deltas, "", "⚙ get_weather\n{\n  \"city\": \"Par", "⚙ get_weather\n{\n  \"city\": \"Paris\"\n}\n✓ valid"},
		{"invalid", deltas[:2], "", "⚙ get_weather\n{\n  \"city\": \"Par", "⚙ get_weather\n{\n  \"city\": \"Par\n✗ arguments are not JSON"},
		{"text instead", nil, "It is sunny.", "It is sunny.", "It is sunny.\n✗ no tool call: answered in text"},
	} {
		p := NewLane(0, config.Provider{Name: "p"}, 1, 10)
		p.OfferTool(fn)
		res := &probes.Result{FinishReason: "stop", End: 50 * ms}
		if tc.text != "" {
			res.Events = probes.EventsOf(probes.Event{At: 5 * ms, Content: tc.text, Tokens: 4})
			p.Record(probes.Update{Events: res.Events})
		}
		for i := range tc.deltas[:min(2, len(tc.deltas))] {
			p.Record(probes.Update{Tool: &tc.deltas[i]})
		}
		if got := plain(p.Answer()); got != tc.partial {
			t.Errorf("%s: while streaming %q, want %q", tc.name, got, tc.partial)
		}
		res.ToolDeltas = tc.deltas
		p.Record(probes.Update{Done: res})
		got := plain(p.Answer())
		if got != tc.want || !strings.HasPrefix(got, tc.partial) {
			t.Errorf("%s: settled %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A json lane's text is the answer indented as it arrives, then whether
// it was valid JSON.
func TestLaneMarksJSONAnswers(t *testing.T) {
	schema, err := workload.DefaultAnswer().Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ answer, shown, verdict string }{
		{`{"city":"Paris","temperature_c":21,"conditions":"sunny"}`, "{\n  \"city\": \"Paris\",\n  \"temperature_c\": 21,\n  \"conditions\": \"sunny\"\n}", "\n✓ valid JSON"},
		{"```json\n{}\n```", "```json\n{}\n```", "\n✗ the answer is not JSON"},
	} {
		p := NewLane(0, config.Provider{Name: "p"}, 1, 10)
		p.AskJSON(schema)
		rec := probes.EventsOf(probes.Event{At: 5 * ms, Content: tc.answer, Tokens: 9})
		p.Record(probes.Update{Events: rec})
		if got := plain(p.Answer()); got != tc.shown {
			t.Errorf("while streaming %q, want %q", got, tc.shown)
		}
		p.Record(probes.Update{Done: &probes.Result{Events: rec, FinishReason: "stop", End: 9 * ms}})
		if got := plain(p.Answer()); got != tc.shown+tc.verdict {
			t.Errorf("settled %q, want %q", got, tc.shown+tc.verdict)
		}
	}
}

// plain is a lane's text with its no-break indent as plain spaces.
func plain(s string) string { return strings.ReplaceAll(s, indentUnit, "  ") }
