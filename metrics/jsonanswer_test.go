package metrics

import (
	"testing"
	"time"

	"tpsrace/probes"
	"tpsrace/workload"
)

func TestJSONPrefix(t *testing.T) {
	doc := `{"city":"Paris","conditions":"sunny","temperature_c":-21.5e1,"ok":[true,null]}`
	for i := range len(doc) + 1 {
		if !JSONPrefix(doc[:i]) {
			t.Errorf("%q is the start of JSON", doc[:i])
		}
	}
	for _, bad := range []string{"```json\n{", "Sure! {", `{"a":1}}`, `{"a" 1`} {
		if JSONPrefix(bad) {
			t.Errorf("%q is not the start of JSON", bad)
		}
	}
}

func TestJSONAnswerOf(t *testing.T) {
	schema, err := workload.DefaultAnswer().Compile()
	if err != nil {
		t.Fatal(err)
	}
	answer := func(parts ...string) *probes.Result {
		r := &probes.Result{}
		for i, p := range parts {
			r.Events.Append(probes.Event{At: ms * time.Duration(10+10*i), Content: p, Tokens: 1})
		}
		return r
	}
	got := JSONAnswerOf(answer(`{"city":"Paris",`, `"temperature_c":21,"conditions":"sunny"}`, "\n"), schema)
	if !got.Valid || got.First != 10*ms || !got.HasValid || got.ValidAt != 20*ms || got.PrefixShare != 1 {
		t.Errorf("valid answer: %+v", got)
	}
	got = JSONAnswerOf(answer("```json\n", `{"city":"Paris","temperature_c":21,"conditions":"sunny"}`, "\n```"), schema)
	if got.Valid || got.HasValid || got.PrefixShare != 0 || got.Problem != "the answer is not JSON" {
		t.Errorf("fenced answer: %+v", got)
	}
	got = JSONAnswerOf(answer(`{"city":"Paris","temperature_c":21,"conditions":"hail"}`), schema)
	if got.Valid || got.Problem != "the answer does not match the schema: /conditions: value must be one of 'sunny', 'cloudy', 'rain', 'snow'" {
		t.Errorf("invalid answer: %+v", got)
	}
	if got := JSONAnswerOf(&probes.Result{}, schema); got.Valid || got.Problem != "no answer" || got.HasFirst {
		t.Errorf("no answer: %+v", got)
	}
}
