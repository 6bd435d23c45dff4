package metrics

import (
	"fmt"
	"strings"
	"time"

	"tpsrace/probes"
	"tpsrace/tokens"
	"tpsrace/workload"
)

// ToolCall is a stream's figures under the tool-call workload. The answer
// is its calls: every call the stream made (parallel calls included), in
// the order they opened; Name and Arguments are the first call's.
type ToolCall struct {
	Calls int // calls made; 0: the stream answered without one
	// First: release → the first tool-call delta (the call's opening: its
	// id and name, or the whole call at once).
	First time.Duration
	// Complete: release → the delta after which every call's arguments
	// parse as JSON and validate against the function's schema (an agent
	// can act then). HasComplete is false when they never did.
	Complete    time.Duration
	HasComplete bool
	Name        string // the first call's function name
	Arguments   string // the first call's arguments, as streamed
	// ArgsTokens: o200k tokens of every call's arguments. ArgsTPS: the
	// arguments' tokens after the first fragment ÷ (last fragment − first
	// fragment), as output speed; undefined with fewer than two fragments
	// (a call sent whole).
	ArgsTokens int
	ArgsTPS    float64
	HasArgsTPS bool
	// Valid: there is a call, every call names the offered function, and
	// its arguments validate. Problem says why not ("" when Valid).
	Valid   bool
	Problem string
}

// toolCall is one call assembled from its deltas.
type toolCall struct {
	index     int
	name      string
	args      strings.Builder
	fragments []probes.ToolDelta // the deltas that carried arguments
	complete  time.Duration
	done      bool
}

// ToolCallOf assembles r's calls from its deltas and checks them against
// fn. Deltas are matched to calls by index, whatever it starts from (0 as
// OpenAI, 1 as Anthropic's layer); a delta without an index opens a call
// when it carries an id or a name, else continues the last one.
func ToolCallOf(r *probes.Result, fn *workload.Schema) ToolCall {
	return ToolCallSoFar(r.ToolDeltas, r.Events.Len() > 0, fn)
}

// ToolCallSoFar is a running stream's calls as far as they have come, from
// its tool-call deltas so far (hasText: text events came too), by
// ToolCallOf's rules: First from the first delta, Complete once every call
// so far parses and validates. Valid and Problem are of the calls so far:
// a parallel call opening later, or the stream's end, can change them.
func ToolCallSoFar(deltas []probes.ToolDelta, hasText bool, fn *workload.Schema) ToolCall {
	var calls []*toolCall
	byIndex := map[int]*toolCall{}
	var t ToolCall
	for k, d := range deltas {
		if k == 0 {
			t.First = d.At
		}
		c := byIndex[d.Index]
		if d.Index == probes.NoIndex {
			c = nil
			if len(calls) > 0 && d.ID == "" && d.Name == "" {
				c = calls[len(calls)-1]
			}
		}
		if c == nil {
			c = &toolCall{index: d.Index}
			calls = append(calls, c)
			if d.Index != probes.NoIndex {
				byIndex[d.Index] = c
			}
		}
		if c.name == "" {
			c.name = d.Name
		}
		if d.Arguments == "" {
			continue
		}
		c.args.WriteString(d.Arguments)
		c.fragments = append(c.fragments, d)
		// Only text that closes an object can be a complete call.
		if !c.done && c.name == fn.Name && strings.HasSuffix(strings.TrimSpace(c.args.String()), "}") && fn.Validate(c.args.String()) == nil {
			c.complete, c.done = d.At, true
		}
	}
	t.Calls = len(calls)
	if t.Calls == 0 {
		t.Problem = "no tool call"
		if hasText {
			t.Problem = "no tool call: answered in text"
		}
		return t
	}
	t.Name, t.Arguments = calls[0].name, calls[0].args.String()
	t.Valid, t.HasComplete = true, true
	var first, last probes.ToolDelta
	firstTokens, fragments := 0, 0
	for i, c := range calls {
		t.ArgsTokens += tokens.Count(c.args.String())
		for _, f := range c.fragments {
			if fragments == 0 {
				first, firstTokens = f, tokens.Count(f.Arguments)
			}
			last, fragments = f, fragments+1
		}
		if t.Valid {
			t.Problem = callProblem(c, fn, i, t.Calls)
			t.Valid = t.Problem == ""
		}
		if c.done {
			t.Complete = max(t.Complete, c.complete)
		} else {
			t.HasComplete = false
		}
	}
	if !t.HasComplete {
		t.Complete = 0
	}
	if span := last.At - first.At; fragments >= 2 && span > 0 {
		t.ArgsTPS, t.HasArgsTPS = float64(t.ArgsTokens-firstTokens)/span.Seconds(), true
	}
	return t
}

// callProblem says why call number i of n is not a valid call of fn, "" when it is.
func callProblem(c *toolCall, fn *workload.Schema, i, n int) string {
	which := ""
	if n > 1 {
		which = fmt.Sprintf("call %d of %d: ", i+1, n)
	}
	switch {
	case c.name != fn.Name:
		return fmt.Sprintf("%scalled %q, not %q", which, c.name, fn.Name)
	case c.args.Len() == 0:
		return which + "no arguments"
	}
	if err := fn.Validate(c.args.String()); err != nil {
		return which + err.Error()
	}
	return ""
}
