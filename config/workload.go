package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"tpsrace/workload"
)

var (
	workloadLevel = level{"under workload:", []string{"name", "tool", "input_tokens", "answer", "follow_ups"}}
	toolLevel     = level{"under workload.tool:", []string{"name", "description", "parameters"}}
)

// maxInputTokens bounds a long-context size: beyond any context window
// offered today, and a prompt tpsrace still builds in a moment.
const maxInputTokens = 2_000_000

// workload reads the workload key: a name, or a mapping of the name and
// its settings (the tool of tool-call, the sizes of long-context).
func (p *parser) workload(n *yaml.Node) workload.Workload {
	if !present(n) {
		return workload.Workload{}
	}
	n = resolve(n)
	nameNode, path := n, "workload"
	var f map[string]field
	if n.Kind == yaml.MappingNode {
		f = p.mapping(n, path, &workloadLevel)
		nameNode, path = f["name"].value, "workload.name"
		if nameNode == nil {
			p.fail(n, "workload", "missing name", "add name: one of "+strings.Join(workload.Names, ", "))
			return workload.Workload{}
		}
	}
	x, ok := p.required(nameNode, "", path, "one of "+strings.Join(workload.Names, ", "))
	if !ok {
		return workload.Workload{}
	}
	w, known := workload.Named(x.value)
	if !known {
		hint := "use one of " + strings.Join(workload.Names, ", ")
		if s := Closest(x.value, workload.Names); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		p.fail(nameNode, path, "unknown workload "+quote(resolve(nameNode).Value), hint)
		return workload.Workload{}
	}
	if v := f["tool"]; v.value != nil {
		if w.Is(workload.ToolCall) {
			w.Tool = p.tool(v.value, "workload.tool")
		} else {
			p.fail(v.key, "workload.tool", "tool applies only to workload tool-call", "remove it, or set name: tool-call")
		}
	}
	if v := f["answer"]; v.value != nil {
		if w.Is(workload.JSON) {
			w.Answer = p.tool(v.value, "workload.answer")
		} else {
			p.fail(v.key, "workload.answer", "answer applies only to workload json", "remove it, or set name: json")
		}
	}
	if v := f["follow_ups"]; v.value != nil {
		if w.Is(workload.MultiTurn) {
			w.FollowUps = p.stringList(v.value, "workload.follow_ups")
		} else {
			p.fail(v.key, "workload.follow_ups", "follow_ups applies only to workload multi-turn", "remove it, or set name: multi-turn")
		}
	}
	if v := f["input_tokens"]; v.value != nil {
		switch {
		case w.Is(workload.LongContext):
			w.InputTokens = p.inputTokens(v.value, "workload.input_tokens")
		case w.Is(workload.CachedPrefix):
			if sizes := p.inputTokens(v.value, "workload.input_tokens"); len(sizes) == 1 {
				w.InputTokens = sizes
			} else if len(sizes) > 1 {
				p.fail(v.value, "workload.input_tokens", "cached-prefix takes one size, the prefix's", "write one, such as [8000]")
			}
		default:
			p.fail(v.key, "workload.input_tokens", "input_tokens applies only to workloads long-context and cached-prefix", "remove it, or set name: long-context")
		}
	}
	return w
}

// tool reads a function definition (or json's answer: a name and a
// schema, in parameters); its parameters must be a JSON schema. path is
// where it is, for messages.
func (p *parser) tool(n *yaml.Node, path string) *workload.Function {
	f := p.mapping(n, path, &toolLevel)
	fn := &workload.Function{}
	if v := f["name"].value; v == nil {
		p.fail(n, path, "missing name", "add name: the function's name, such as get_weather")
	} else if x, ok := p.required(v, path, "name", "the function's name, such as get_weather"); ok {
		fn.Name = x.value
	}
	if v := f["description"].value; v != nil {
		x, _ := p.text(v, join(path, "description"))
		fn.Description = x.value
	}
	v := f["parameters"].value
	if !present(v) {
		p.fail(n, path, "missing parameters", "add parameters: the JSON schema (of the arguments, or of the answer for json): {type: object, properties: ...}")
		return fn
	}
	budget := maxParamValues
	raw, err := json.Marshal(p.value(v, join(path, "parameters"), 1, &budget))
	if err != nil {
		p.fail(v, join(path, "parameters"), err.Error(), "")
		return fn
	}
	fn.Parameters = raw
	if fn.Name != "" {
		if _, err := fn.Compile(); err != nil {
			p.fail(v, join(path, "parameters"), err.Error(), "see json-schema.org")
		}
	}
	return fn
}

// inputTokens reads long-context's sizes: whole numbers from 1 up.
func (p *parser) inputTokens(n *yaml.Node, key string) []int {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.fail(n, key, "expected a list of token counts, got "+describe(n), "write it as [1000, 8000, 32000]")
		return nil
	}
	var sizes []int
	for i, item := range n.Content {
		k := fmt.Sprintf("%s[%d]", key, i)
		v, ok := p.wholeNumber(item, k)
		if ok && (v < 1 || v > maxInputTokens) {
			p.fail(item, k, fmt.Sprintf("must be 1 to %d tokens, got %d", maxInputTokens, v), "")
			ok = false
		}
		if ok {
			sizes = append(sizes, v)
		}
	}
	return sizes
}

// CheckWorkloadParams refuses a provider's params that would replace what
// the race's workload validates against, so that no answer is judged by a
// schema it was not asked for: tools under tool-call (the calls are
// validated against workload.tool) and a json_schema response_format under
// json (the answers against workload.answer; json_object stays allowed).
// It runs once the workload is final: --workload may change the file's.
func (c *Config) CheckWorkloadParams() error {
	var errs []error
	for i, p := range c.Providers {
		refuse := func(param, what, instead string) {
			errs = append(errs, fmt.Errorf("%s: providers[%d].params.%s: it would replace the %s the %s race validates against (%s)",
				p.Where, i, param, what, c.Workload.Label(), instead))
		}
		if _, ok := p.Params["tools"]; ok && c.Workload.Is(workload.ToolCall) {
			refuse("tools", "function", "give it as workload.tool; tool_choice may stay in params")
		}
		if rf, ok := p.Params["response_format"].(map[string]any); ok && rf["type"] == "json_schema" && c.Workload.Is(workload.JSON) {
			refuse("response_format", "schema", "give it as workload.answer; {type: json_object} may stay in params")
		}
	}
	return errors.Join(errs...)
}
