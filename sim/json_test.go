package sim

import (
	"encoding/json"
	"testing"

	"tpsrace/tokens"
)

// A request for a JSON object (json_object, no schema) is answered with
// one, {"answer": "…"}, as long as the text answer would be and on the same
// clock; max_tokens shortens it and it stays whole.
func TestJSONObjectAnswer(t *testing.T) {
	s := startServer(t, Options{})
	for _, c := range []struct {
		model     string
		maxTokens int
		want      int // the text answer's tokens
	}{
		{"sim:ttft=0s,tps=2000,tokens=40", 0, 40},
		{"sim:ttft=0s,tps=2000,tokens=40,chunk=4", 0, 40},
		{"sim:ttft=0s,tps=2000,tokens=400", 12, 12},
	} {
		extra := request{"response_format": map[string]any{"type": "json_object"}, "stream_options": map[string]any{"include_usage": true}}
		if c.maxTokens > 0 {
			extra["max_tokens"] = c.maxTokens
		}
		evs := events(t, streamLines(t, s, chatBody(c.model, extra)))
		content, _ := joined(evs)
		var answer struct {
			Answer *string `json:"answer"`
		}
		if err := json.Unmarshal([]byte(content), &answer); err != nil || answer.Answer == nil || *answer.Answer == "" {
			t.Errorf("%s: content %q is no JSON object with an answer (%v)", c.model, content, err)
			continue
		}
		// The clock counts the fragments' tokens: within a token or two of
		// the text answer's (the object's punctuation counted apart), and
		// the events carry a chunk of them each, as text events do.
		u := lastUsage(evs)
		if u == nil || u.CompletionTokens < c.want-2 || u.CompletionTokens > c.want+2 {
			t.Errorf("%s: usage %+v, want about %d completion tokens", c.model, u, c.want)
		}
		chunk := 1
		if c.model == "sim:ttft=0s,tps=2000,tokens=40,chunk=4" {
			chunk = 4
		}
		if n, want := len(textEvents(evs)), (c.want+chunk-1)/chunk; n < want-1 || n > want+1 {
			t.Errorf("%s: %d text events, want about %d (a chunk of %d tokens each)", c.model, n, want, chunk)
		}
		if got := tokens.Count(content); got < c.want-2 || got > c.want+2 {
			t.Errorf("%s: the object is %d o200k tokens, want about %d", c.model, got, c.want)
		}
	}
}

// A request for JSON following a schema (json_schema) is answered with an
// instance of it: every required property, of its type.
func TestJSONSchemaAnswer(t *testing.T) {
	s := startServer(t, Options{})
	schema := map[string]any{"type": "object", "required": []string{"city", "temperature_c", "conditions", "days"},
		"properties": map[string]any{
			"city":          map[string]any{"type": "string"},
			"temperature_c": map[string]any{"type": "number"},
			"conditions":    map[string]any{"type": "string", "enum": []string{"sunny", "cloudy"}},
			"days":          map[string]any{"type": "array", "items": map[string]any{"type": "integer"}},
		}, "additionalProperties": false}
	extra := request{"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "weather", "schema": schema, "strict": true}}}
	content, _ := joined(events(t, streamLines(t, s, chatBody("sim:ttft=0s,tps=2000", extra))))
	var answer struct {
		City         *string  `json:"city"`
		TemperatureC *float64 `json:"temperature_c"`
		Conditions   *string  `json:"conditions"`
		Days         []int    `json:"days"`
	}
	if err := json.Unmarshal([]byte(content), &answer); err != nil || answer.City == nil || answer.TemperatureC == nil ||
		answer.Conditions == nil || *answer.Conditions != "sunny" || len(answer.Days) == 0 {
		t.Errorf("content %q is not an instance of the schema (%v)", content, err)
	}
}
