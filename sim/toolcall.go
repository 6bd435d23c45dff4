package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"tpsrace/tokens"
)

// Tool-call shapes (tool=), each as a provider streams a call.
const (
	ToolSplit     = "split"     // OpenAI: the opening (id, name, arguments "") then the arguments in fragments
	ToolWhole     = "whole"     // Ollama: the whole call in one chunk
	ToolNoIndex   = "noindex"   // Gemini: the whole call in one chunk, without an index
	ToolIndex1    = "index1"    // Anthropic's compatibility layer: as split, the index counting from 1
	ToolEmptyArgs = "emptyargs" // the opening without arguments, then an empty-arguments delta, then the fragments
	ToolParallel  = "parallel"  // two calls, one after the other, as split (indexes 0 and 1)
	ToolText      = "text"      // ignores the tools and answers in text
)

var toolShapes = []string{ToolSplit, ToolWhole, ToolNoIndex, ToolIndex1, ToolEmptyArgs, ToolParallel, ToolText}

// toolRequest is the part of a request's tools the simulator reads.
type toolRequest struct {
	Type     string `json:"type"`
	Function struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// wireToolCall is one delta.tool_calls entry as the simulator writes it.
type wireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string  `json:"name,omitempty"`
	Arguments *string `json:"arguments,omitempty"`
}

// toolEvent is one tool-call event of a planned answer: its delta and the
// tokens it carries (the clock's n).
type toolEvent struct {
	call    wireToolCall
	content *string // a JSON answer's fragment instead of a call (response_format json_schema or json_object)
	tokens  int
}

// cities are the simulated calls' string arguments, one per parallel call.
var cities = []string{"Paris", "Tokyo"}

// calls plans the tool-call events of an answer to req (planned as p),
// nil when the answer is text: the request offers no function, tool_choice
// is "none", or the schedule says tool=text. The arguments are an instance
// of the first function's schema (Instance), so they validate against it.
// A request for JSON without tools gets its answer's events instead: an
// instance of its json_schema, or for json_object an object holding the
// answer's text (answerObject).
func (req chatRequest) calls(s Schedule, p plan) []toolEvent {
	if len(req.Tools) == 0 {
		switch rf := req.ResponseFormat; rf.Type {
		case "json_schema":
			var schema any
			_ = json.Unmarshal(rf.JSONSchema.Schema, &schema) // a schema that is not JSON gets {}
			return jsonAnswer(instance(schema, cities[0]), s.Chunk)
		case "json_object":
			return jsonAnswer(answerObject(p.total-p.reasoning), s.Chunk)
		}
	}
	if len(req.Tools) == 0 || string(req.ToolChoice) == `"none"` || s.Tool == ToolText {
		return nil
	}
	fn := req.Tools[0].Function
	var schema any
	_ = json.Unmarshal(fn.Parameters, &schema) // a schema that is not JSON gets {}
	n := 1
	if s.Tool == ToolParallel {
		n = 2
	}
	var events []toolEvent
	for i := range n {
		args := instance(schema, cities[i])
		index := i
		if s.Tool == ToolIndex1 {
			index = i + 1
		}
		open := wireToolCall{Index: &index, ID: fmt.Sprintf("call_sim_%d", i), Type: "function", Function: wireFunction{Name: fn.Name}}
		nameTokens := tokens.Count(fn.Name)
		switch s.Tool {
		case ToolWhole, ToolNoIndex:
			open.Function.Arguments = &args
			if s.Tool == ToolNoIndex {
				open.Index = nil
			}
			events = append(events, toolEvent{call: open, tokens: nameTokens + tokens.Count(args)})
			continue
		case ToolEmptyArgs:
			empty := ""
			events = append(events, toolEvent{call: open, tokens: nameTokens}, toolEvent{call: wireToolCall{Index: &index, Function: wireFunction{Arguments: &empty}}})
		default:
			empty := ""
			open.Function.Arguments = &empty
			events = append(events, toolEvent{call: open, tokens: nameTokens})
		}
		for _, frag := range fragments(args, s.Chunk) {
			events = append(events, toolEvent{call: wireToolCall{Index: &index, Function: wireFunction{Arguments: &frag}}, tokens: tokens.Count(frag)})
		}
	}
	return events
}

// jsonAnswer is the events of an answer that is the JSON text answer, in
// fragments of about a token.
func jsonAnswer(answer string, chunk int) []toolEvent {
	var events []toolEvent
	for _, frag := range fragments(answer, chunk) {
		events = append(events, toolEvent{content: &frag, tokens: tokens.Count(frag)})
	}
	return events
}

// answerObject is the answer to a request for a JSON object with no schema
// (json_object): {"answer": "the model reads …"}, the simulated text, so
// that with its punctuation it is about n tokens, the text answer's length
// (at least one word): JSON mode costs no speed and no length, and the
// object stays whole when max_tokens cut the text.
func answerObject(n int) string {
	b, _ := json.Marshal(map[string]string{"answer": strings.TrimPrefix(text(0, max(n-answerObjectTokens(), 1)), " ")})
	return string(b)
}

// answerObjectTokens is what answerObject's punctuation and key add to its
// text, counted as its fragments are (on first use: counting loads the
// vocabulary, which a command that runs no simulator never needs).
var answerObjectTokens = sync.OnceValue(func() int {
	return tokens.Count(`{"`) + tokens.Count(`answer`) + tokens.Count(`":"`) + tokens.Count(`"}`)
})

// jsonPiece is a run of word characters with the space before it, a run of
// space, or one of punctuation: the simulated arguments stream in these
// pieces, about a token each (a simulated word with its space is one).
var jsonPiece = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*[A-Za-z0-9_]+|\s+|[^A-Za-z0-9_\s]+`) })

// fragments cuts args into the pieces of its events, chunk pieces each.
func fragments(args string, chunk int) []string {
	pieces := jsonPiece().FindAllString(args, -1)
	var out []string
	for c := range slices.Chunk(pieces, max(chunk, 1)) {
		frag := ""
		for _, p := range c {
			frag += p
		}
		out = append(out, frag)
	}
	return out
}

// instance is JSON text that validates against schema (the subset a
// function's parameters use: type, properties, required, enum, const,
// items), every string being city.
func instance(schema any, city string) string {
	b, _ := json.Marshal(value(schema, city))
	return string(b)
}

func value(schema any, city string) any {
	m, _ := schema.(map[string]any)
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	typ := m["type"]
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
	}
	switch typ {
	case "string":
		return city
	case "integer":
		return 3
	case "number":
		return 21.5
	case "boolean":
		return true
	case "null":
		return nil
	case "array":
		return []any{value(m["items"], city)}
	}
	obj := map[string]any{}
	props, _ := m["properties"].(map[string]any)
	for name, p := range props {
		obj[name] = value(p, city)
	}
	return obj
}

// streamCalls streams an answer that is tool calls, or a JSON answer: the
// reasoning first, as text events, then the calls' (the JSON's) events,
// each on the clock as text is, then finish_reason "tool_calls" ("stop"),
// usage and [DONE]. A fault acts as in a text answer: one that cuts the
// stream does so before the first event that would take it past after=N
// tokens, and badjson's or bigchunk's event comes once N have gone out.
func (g *generation) streamCalls(ctx context.Context, out *sseWriter) {
	type planned struct {
		m      message
		call   *wireToolCall
		tokens int
	}
	var events []planned
	for from := 0; from < g.p.reasoning; from += g.s.Chunk {
		to := min(from+g.s.Chunk, g.p.reasoning)
		events = append(events, planned{m: g.message(from, to), tokens: to - from})
	}
	finish := "stop"
	for _, e := range g.calls {
		if e.content != nil {
			events = append(events, planned{m: message{Content: e.content}, tokens: e.tokens})
			continue
		}
		events = append(events, planned{call: &e.call, tokens: e.tokens})
		finish = "tool_calls"
	}
	for _, e := range events {
		if g.s.cutsStream() && g.next+e.tokens > g.s.After {
			break
		}
		due := g.clk.next(e.tokens, g.slowdown())
		if !out.waitUntil(ctx, g.start.Add(due)) {
			return
		}
		m := e.m
		if e.call != nil {
			m = message{ToolCalls: []wireToolCall{*e.call}}
		}
		g.inject(out, false)
		g.send(out, m, e.tokens, 0)
	}
	g.p.finish = finish
	g.conclude(ctx, out)
}
