// Package workload says what a race asks the providers to do: the plain
// chat answer (the default), a tool call, or a long prompt. It builds the
// parts of the request a workload adds and holds the function schema a tool
// call's arguments are validated against; the figures themselves are
// computed in package metrics, the parsing in package probes.
package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Names of the workloads.
const (
	Chat         = "chat"          // one prompt, one streamed answer: tpsrace's race
	ToolCall     = "tool-call"     // the request carries a function; the answer is a call to it
	LongContext  = "long-context"  // the prompt padded to N input tokens, one race per size
	CachedPrefix = "cached-prefix" // the same long prompt twice in a row: cold, then warm
	JSON         = "json"          // the answer is JSON that must validate against a schema
	MultiTurn    = "multi-turn"    // a scripted conversation: each turn carries the answers before it
)

// Names lists every workload, the default first.
var Names = []string{Chat, ToolCall, LongContext, CachedPrefix, JSON, MultiTurn}

// Workload is what a race asks for. The zero value is Chat.
type Workload struct {
	Name string `json:"name"`
	// Tool is the function a tool-call race offers (DefaultTool when the
	// file names none); nil for the other workloads.
	Tool *Function `json:"tool,omitempty"`
	// Answer is the JSON schema a json race asks the answer to follow
	// (response_format json_schema; Parameters is the schema), DefaultAnswer
	// when the file names none; nil for the other workloads.
	Answer *Function `json:"answer,omitempty"`
	// InputTokens are long-context's prompt sizes, in o200k tokens, raced
	// one after the other (DefaultInputTokens when none are given);
	// cached-prefix's prefix size is the first (DefaultPrefixTokens).
	InputTokens []int `json:"input_tokens,omitempty"`
	// FollowUps are multi-turn's user messages after the prompt, one a
	// turn (DefaultFollowUps when none are given).
	FollowUps []string `json:"follow_ups,omitempty"`
}

// Step is one race of a workload's run: the prompt padded to InputTokens
// (0: as it is), and Warm, the same prompt as the step before (the same
// nonce), so that a provider's prefix cache may serve it.
type Step struct {
	// Index is the step's place in its run, from 0 (Steps' order).
	Index       int
	InputTokens int
	Warm        bool
	// FollowUps: multi-turn's user messages after the prompt so far, this
	// turn's last; the turn is len(FollowUps)+1, and turn 1 starts anew.
	FollowUps []string
}

// Steps are the races of one run of w, in order: one for chat and
// tool-call, one per size for long-context, cold then warm for
// cached-prefix.
func (w Workload) Steps() []Step {
	switch {
	case w.Is(LongContext):
		steps := make([]Step, len(w.InputTokens))
		for i, n := range w.InputTokens {
			steps[i] = Step{InputTokens: n}
		}
		return steps
	case w.Is(CachedPrefix):
		return []Step{{InputTokens: w.InputTokens[0]}, {InputTokens: w.InputTokens[0], Warm: true}}
	case w.Is(MultiTurn):
		steps := make([]Step, len(w.FollowUps)+1)
		for i := range steps {
			steps[i] = Step{FollowUps: w.FollowUps[:i]}
		}
		return steps
	}
	return []Step{{}}
}

// Is reports whether w is the named workload (an empty name is Chat).
func (w Workload) Is(name string) bool {
	if w.Name == "" {
		return name == Chat
	}
	return w.Name == name
}

// ShortAnswerTokens is the referee's short_answer threshold for w: a
// stream with fewer output tokens than this after its first text event
// is flagged, for its speed is then a few gaps' worth of noise. Only a
// verdict on output speed can be bent by that, so only chat's (the
// default verdict) has one; the others compare times that a short answer
// leaves true (tool-call: the time to a complete call; json: to valid
// JSON, whose answer is short by design; long-context: the prefill
// estimate from TTFTs; cached-prefix: warm TTFT; multi-turn: the
// conversation's time) and have none (0: never flagged).
func (w Workload) ShortAnswerTokens() int {
	if w.Is(Chat) {
		return 20
	}
	return 0
}

// Label is the workload's name, "chat" for the zero value.
func (w Workload) Label() string {
	if w.Name == "" {
		return Chat
	}
	return w.Name
}

// Named is the workload called name with its defaults; ok is false for a
// name tpsrace does not know.
func Named(name string) (Workload, bool) {
	if !slices.Contains(Names, name) {
		return Workload{}, false
	}
	w := Workload{Name: name}
	switch name {
	case Chat:
		w.Name = ""
	case ToolCall:
		w.Tool = DefaultTool()
	case LongContext:
		w.InputTokens = slices.Clone(DefaultInputTokens)
	case CachedPrefix:
		w.InputTokens = []int{DefaultPrefixTokens}
	case JSON:
		w.Answer = DefaultAnswer()
	case MultiTurn:
		w.FollowUps = slices.Clone(DefaultFollowUps)
	}
	return w, true
}

// DefaultInputTokens are long-context's sizes when none are given.
var DefaultInputTokens = []int{1000, 8000, 32000}

// DefaultFollowUps are multi-turn's turns after the prompt when none are
// given: two more, each answered in the light of everything before.
var DefaultFollowUps = []string{
	"Now explain the same to a ten-year-old, in two sentences.",
	"Summarise everything you said so far in one line.",
}

// DefaultPrefixTokens is cached-prefix's prompt size when none is given: a
// long system prompt's.
const DefaultPrefixTokens = 8000

// Function is a tool a tool-call race offers: OpenAI's function
// definition. Parameters is its JSON schema, as the provider receives it.
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// DefaultTool needs real arguments: a city the prompt names, and a unit
// from a fixed set.
func DefaultTool() *Function {
	return &Function{
		Name:        "get_weather",
		Description: "Get the current weather in a city.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"city":{"type":"string","description":"The city, e.g. Paris"},` +
			`"unit":{"type":"string","enum":["celsius","fahrenheit"],"description":"Temperature unit"}},` +
			`"required":["city"],"additionalProperties":false}`),
	}
}

// DefaultAnswer is a weather report: a string, a number and an enum, all required.
func DefaultAnswer() *Function {
	return &Function{
		Name: "weather_report",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"city":{"type":"string"},"temperature_c":{"type":"number"},` +
			`"conditions":{"type":"string","enum":["sunny","cloudy","rain","snow"]}},` +
			`"required":["city","temperature_c","conditions"],"additionalProperties":false}`),
	}
}

// JSONPrompt is a json race's prompt when the file sets none of its own.
const JSONPrompt = "Report the current weather in Paris as JSON: the city, the temperature in celsius and the conditions."

// ToolPrompt is a tool-call race's prompt when the file sets none of its own.
const ToolPrompt = "What is the weather in Paris right now, in celsius? Use the tool."

// Compile checks the function's schema; Validate then checks arguments
// against it.
//
// The validator is santhosh-tekuri/jsonschema, patched (third_party/README.md)
// to compile every draft's meta-schema on the first Compile rather than in
// its package init, which every command paid: 4.2 ms on a quiet 2-core
// machine, about 9 ms and 1.7 MB of heap on a slow guest, about half of all
// package initialisation (`GODEBUG=inittrace=1 tpsrace version`). A patched
// copy rather than another validator: google/jsonschema-go (v0.4.3), which
// does no work at init, accepts {"type": "objet"} as a schema, stops at the
// first problem, and tells a user `type: map[] has type "object", want
// "objet"` and `enum: hail does not equal any of: [sunny cloudy rain snow]`
// where this one says which keyword is wrong and "value must be one of
// 'sunny', 'cloudy', …".
// kaptinlin/jsonschema (v0.9.8, no init work either) was tried too: its
// Compile also accepts "objet", and its check of a schema against the
// draft's meta-schema fetched https://json-schema.org/draft/2020-12/schema
// over the network, where tpsrace talks to no host but the providers.
func (f *Function) Compile() (*Schema, error) {
	if f.Name == "" {
		return nil, fmt.Errorf("the tool has no name")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Parameters))
	if err != nil {
		return nil, fmt.Errorf("parameters are not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	const url = "tpsrace://tool/parameters.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("parameters: %v", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("parameters are not a valid JSON schema: %v", oneLine(err.Error()))
	}
	return &Schema{Name: f.Name, s: s}, nil
}

// Schema is a compiled function: its name and its arguments' schema.
type Schema struct {
	Name string
	s    *jsonschema.Schema
}

// Validate says why args (a call's arguments, JSON text) are not a valid
// call, nil when they are: they must parse as JSON and match the schema.
func (s *Schema) Validate(args string) error { return s.validate(args, "arguments") }

// ValidateJSON says why answer (a json race's answer text) is not JSON
// matching the schema, nil when it is.
func (s *Schema) ValidateJSON(answer string) error { return s.validate(answer, "the answer") }

func (s *Schema) validate(text, what string) error {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return fmt.Errorf("%s %s not JSON", what, isAre(what))
	}
	if err := s.s.Validate(v); err != nil {
		return fmt.Errorf("%s %s not match the schema: %s", what, doDoes(what), problems(err.Error()))
	}
	return nil
}

func isAre(what string) string {
	if strings.HasSuffix(what, "s") {
		return "are"
	}
	return "is"
}

func doDoes(what string) string {
	if strings.HasSuffix(what, "s") {
		return "do"
	}
	return "does"
}

// problems is the validator's list of what failed, on one line, without
// its header: "missing property 'city'", "/unit: value must be one of …".
func problems(msg string) string {
	lines := strings.Split(msg, "\n")
	if len(lines) > 1 {
		lines = lines[1:] // "jsonschema validation failed with '…#'"
	}
	var out []string
	for _, l := range lines {
		l = strings.TrimPrefix(strings.TrimSpace(l), "- ")
		if rest, ok := strings.CutPrefix(l, "at '"); ok {
			if loc, what, ok := strings.Cut(rest, "': "); ok {
				l = what
				if loc != "" {
					l = loc + ": " + what
				}
			}
		}
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

// oneLine joins a validator's multi-line message.
func oneLine(s string) string {
	fields := strings.Fields(strings.ReplaceAll(s, "\n", "; "))
	return strings.Join(fields, " ")
}

// Sequence hands out the races of a workload's runs, one after the other,
// each with its nonce: a fresh one for each cold step, the step before's
// for a warm one.
type Sequence struct {
	steps []Step
	next  int
	nonce string
}

// Sequence starts w's races from the first step of a run.
func (w Workload) Sequence() *Sequence { return &Sequence{steps: w.Steps()} }

// PerRun is the number of races of one run.
func (q *Sequence) PerRun() int { return len(q.steps) }

// Next is the next race's step and nonce; now makes a fresh nonce.
func (q *Sequence) Next(now time.Time) (Step, string) {
	step := q.steps[q.next%len(q.steps)]
	step.Index = q.next % len(q.steps)
	q.next++
	if !step.Warm || q.nonce == "" {
		q.nonce = Nonce(now)
	}
	return step, q.nonce
}
