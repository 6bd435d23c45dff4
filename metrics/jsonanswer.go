package metrics

import (
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"tpsrace/probes"
	"tpsrace/workload"
)

// JSONAnswer is a stream's figures under the json workload: the answer
// must be JSON that validates against the schema asked for.
type JSONAnswer struct {
	// First: release → the first answer text (TTFA); HasFirst false without any.
	First    time.Duration
	HasFirst bool
	// ValidAt: release → the answer event after which the answer so far
	// parses as JSON and validates (the consumer can use it then);
	// HasValid false when it never does.
	ValidAt  time.Duration
	HasValid bool
	Valid    bool   // the whole answer parses and validates
	Problem  string // why not; "" when Valid
	// PrefixShare: the share of the answer's code points that were a valid
	// JSON prefix as they streamed (1: it was JSON all along; 0: it opened
	// with prose or a ``` fence).
	PrefixShare float64
}

// JSONAnswerOf checks r's answer text against schema.
func JSONAnswerOf(r *probes.Result, schema *workload.Schema) JSONAnswer {
	var a JSONAnswer
	var answer strings.Builder
	prefixOK := true
	prefixChars := 0
	for e := range r.Events.Values() {
		if e.Content == "" {
			continue
		}
		if !a.HasFirst {
			a.First, a.HasFirst = e.At, true
		}
		answer.WriteString(e.Content)
		text := answer.String()
		if prefixOK = prefixOK && JSONPrefix(text); prefixOK {
			prefixChars = utf8.RuneCountInString(text)
		}
		if !a.HasValid && strings.HasSuffix(strings.TrimSpace(text), "}") && schema.ValidateJSON(text) == nil {
			a.ValidAt, a.HasValid = e.At, true
		}
	}
	text := answer.String()
	if n := utf8.RuneCountInString(text); n > 0 {
		a.PrefixShare = float64(prefixChars) / float64(n)
	}
	switch err := schema.ValidateJSON(text); {
	case text == "":
		a.Problem = "no answer"
	case err != nil:
		a.Problem = err.Error()
	default:
		a.Valid = true
	}
	return a
}

// JSONPrefix reports whether text is JSON or the start of some JSON
// document: what a streaming consumer can still parse.
func JSONPrefix(text string) bool {
	var v any
	err := json.Unmarshal([]byte(text), &v)
	var syntax *json.SyntaxError
	switch {
	case err == nil, strings.TrimSpace(text) == "":
		return true
	case !errors.As(err, &syntax):
		return false
	case strings.HasSuffix(err.Error(), "unexpected end of JSON input"):
		return true
	}
	// A number cut after its "." or "e", or a literal cut short (nu), is
	// reported as a bad character: see whether finishing it helps.
	if strings.ContainsAny(text[len(text)-1:], ".eE+-") {
		return JSONPrefix(text + "0")
	}
	for _, lit := range []string{"true", "false", "null"} {
		for k := len(lit) - 1; k > 0; k-- {
			if strings.HasSuffix(text, lit[:k]) {
				return JSONPrefix(text + lit[k:])
			}
		}
	}
	return false
}
