package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sashabaranov/go-openai"
	"go.yaml.in/yaml/v3"
)

// field is one key: value pair of a mapping.
type field struct{ key, value *yaml.Node }

// mapping checks that n is a mapping without repeated keys and, unless lv is
// nil, only with keys of lv, and returns its pairs by key. A missing or null n
// reads as an empty mapping.
func (p *parser) mapping(n *yaml.Node, path string, lv *level) map[string]field {
	fields := map[string]field{}
	if !present(n) {
		return fields
	}
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		p.fail(n, path, "expected a mapping (key: value), got "+describe(n), "")
		return fields
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.fail(k, path, "expected a plain key, got "+describe(k), "")
			continue
		}
		name := k.Value
		switch first, repeated := fields[name]; {
		case repeated:
			p.fail(k, join(path, name), fmt.Sprintf("duplicate key %s (first at line %d)", quote(name), first.key.Line), "remove one of them")
		case lv != nil && !slices.Contains(lv.keys, name):
			p.unknownKey(k, path, name, lv)
		default:
			fields[name] = field{k, v}
		}
	}
	return fields
}

func (p *parser) unknownKey(k *yaml.Node, path, name string, lv *level) {
	hint := "known keys: " + strings.Join(lv.keys, ", ")
	if name == "workload" && lv == &providerLevel {
		// One workload per race: figures of different workloads (a call's
		// time, a JSON answer's, a chat answer's) do not rank together.
		p.fail(k, join(path, name), "a race has one workload, the same for every provider",
			"set workload: at the top level, or --workload; a provider's params adjust its request, "+
				"such as params: {tool_choice: auto} or params: {response_format: {type: json_object}}")
		return
	}
	if home := homeOf(name); home != nil {
		hint = fmt.Sprintf("%s belongs %s", name, home.where)
	} else if s := Closest(name, lv.keys); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	} else if f := Closest(name, requestFields()); f != "" && lv == &providerLevel {
		hint = fmt.Sprintf("a field of the request goes under params: params: {%s: …}", f)
	} else if name == "<<" {
		hint = "YAML merge keys are not supported: write the settings out"
	}
	p.fail(k, join(path, name), "unknown key "+quote(name), hint)
}

// homeOf returns the level a key belongs to, or nil.
func homeOf(name string) *level {
	for _, lv := range levels {
		if slices.Contains(lv.keys, name) {
			return lv
		}
	}
	return nil
}

func (p *parser) where(n *yaml.Node) string {
	return fmt.Sprintf("%s:%d:%d", p.file, max(n.Line, 1), max(n.Column, 1))
}

func (p *parser) fail(n *yaml.Node, key, msg, hint string) {
	p.failAt(n.Line, n.Column, key, msg, hint)
}

func (p *parser) failAt(line, col int, key, msg, hint string) {
	p.errs = append(p.errs, &Error{File: p.file, Line: max(line, 1), Col: max(col, 1), Key: key, Msg: msg, Hint: hint})
}

// join extends a key path: join("providers[0]", "model") is "providers[0].model".
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// present reports whether a mapping or list value is given: null counts as left out.
func present(n *yaml.Node) bool {
	n = resolve(n)
	return n != nil && !isNull(n)
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// quotedNumberHint explains why a value that reads as a number to a person
// is not one: "400", quoted, or a price written "$0.59" or "1,000".
func quotedNumberHint(n *yaml.Node) string {
	if _, err := strconv.ParseFloat(n.Value, 64); err == nil && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return "remove the quotes"
	}
	bare := strings.NewReplacer("$", "", "€", "", "£", "", ",", "", "_", "", " ", "").Replace(strings.TrimSuffix(strings.TrimSpace(n.Value), "USD"))
	if _, err := strconv.ParseFloat(bare, 64); err == nil && bare != n.Value {
		return "write a number: " + bare
	}
	return ""
}

// describe names a value for "expected X, got Y" messages. It quotes scalars,
// so never call it on an API key or a header value.
func describe(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind != yaml.ScalarNode:
		return "an unsupported value"
	case isNull(n):
		return "nothing"
	}
	return quote(n.Value)
}

// requestFields are the chat request's fields a provider's params may set
// (go-openai's ChatCompletionRequest, which probes sends, less those
// ReservedParam keeps): a "temperature:" written beside a provider's model
// is a request field in the wrong place.
var requestFields = sync.OnceValue(func() []string {
	var fields []string
	t := reflect.TypeFor[openai.ChatCompletionRequest]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && !ReservedParam(name) {
			fields = append(fields, name)
		}
	}
	return fields
})
