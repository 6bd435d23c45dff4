package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Bounds on one provider's params: YAML aliases could otherwise multiply
// values without end, or nest a value in itself.
const (
	maxParamValues = 1000
	maxParamDepth  = 32
)

// text reads a text value with its ${VAR}s expanded; null reads as "". ok is
// false when the value cannot be used: it was reported as an error, or it
// uses a variable that is unset (added to p.unset).
func (p *parser) text(n *yaml.Node, key string) (x expansion, ok bool) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode {
		p.fail(n, key, "expected a string, got "+describe(n), "")
		return x, false
	}
	if isNull(n) {
		return x, true
	}
	x, err := expand(n.Value, p.getenv)
	if err != nil {
		p.fail(n, key, err.Error(), "write ${NAME} for a variable, $$ for a literal $")
		return x, false
	}
	p.unset = append(p.unset, x.unset...)
	return x, len(x.unset) == 0
}

// required reads the text value of key name under path, which, when given,
// must not be empty.
func (p *parser) required(n *yaml.Node, path, name, hint string) (expansion, bool) {
	key := join(path, name)
	x, ok := p.text(n, key)
	if ok && strings.TrimSpace(x.value) == "" {
		p.fail(n, key, name+" is empty", hint)
		return x, false
	}
	return x, ok
}

func (p *parser) wholeNumber(n *yaml.Node, key string) (int, bool) {
	n = resolve(n)
	var v int
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&v) != nil {
		p.fail(n, key, "expected a whole number, got "+describe(n), quotedNumberHint(n))
		return 0, false
	}
	return v, true
}

// price reads an amount of USD: a number, zero or more.
func (p *parser) price(n *yaml.Node, key string) float64 {
	if n == nil {
		return 0
	}
	n = resolve(n)
	var v float64
	if tag := n.ShortTag(); n.Kind != yaml.ScalarNode || tag != "!!int" && tag != "!!float" || n.Decode(&v) != nil {
		p.fail(n, key, "expected a number (USD per million tokens), got "+describe(n), quotedNumberHint(n))
		return 0
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		p.fail(n, key, "must be zero or more, got "+quote(n.Value), "")
		return 0
	}
	return v
}

func (p *parser) duration(n *yaml.Node, key string) time.Duration {
	if n == nil {
		return 0
	}
	n = resolve(n)
	var d time.Duration
	err := errors.New("not a scalar")
	if n.Kind == yaml.ScalarNode {
		d, err = time.ParseDuration(n.Value)
	}
	switch {
	case err != nil && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float"):
		p.fail(n, key, "expected a duration, got the bare number "+n.Value, "add a unit, such as "+n.Value+"s")
	case err != nil:
		p.fail(n, key, "expected a duration, got "+describe(n), "Go duration such as 10s, 1m30s or 500ms")
	case d < 0:
		p.fail(n, key, "must not be negative, got "+quote(n.Value), "")
	default:
		return d
	}
	return 0
}

func (p *parser) timeouts(n *yaml.Node, path string) Timeouts {
	f := p.mapping(n, path, &timeoutLevel)
	phase := func(name string) time.Duration { return p.duration(f[name].value, join(path, name)) }
	return Timeouts{Connect: phase("connect"), FirstToken: phase("first_token"), Stall: phase("stall"), Total: phase("total")}
}

// slo reads slo: {ttft: 500ms, output_tps: 50, e2e: 10s}; a bound left
// out is not set.
func (p *parser) slo(n *yaml.Node, path string) SLO {
	if !present(n) {
		return SLO{}
	}
	f := p.mapping(n, path, &sloLevel)
	s := SLO{TTFT: p.duration(f["ttft"].value, join(path, "ttft")), E2E: p.duration(f["e2e"].value, join(path, "e2e"))}
	if v := f["output_tps"].value; v != nil {
		v = resolve(v)
		if tag := v.ShortTag(); v.Kind != yaml.ScalarNode || tag != "!!int" && tag != "!!float" || v.Decode(&s.OutputTPS) != nil {
			p.fail(v, join(path, "output_tps"), "expected a number (tokens per second), got "+describe(v), quotedNumberHint(v))
			s.OutputTPS = 0
		} else if math.IsNaN(s.OutputTPS) || math.IsInf(s.OutputTPS, 0) || s.OutputTPS < 0 {
			p.fail(v, join(path, "output_tps"), "must be zero or more, got "+quote(v.Value), "")
			s.OutputTPS = 0
		}
	}
	return s
}

// baseURL checks an API root and returns it without trailing slashes ("" when
// it is bad). s is the expanded value of n.
func (p *parser) baseURL(n *yaml.Node, key, s string) string {
	n = resolve(n)
	bad := func(msg, hint string) string {
		p.fail(n, key, quote(RedactURL(n.Value))+" "+msg, hint)
		return ""
	}
	if !strings.Contains(s, "://") {
		return bad("has no scheme", "add "+schemeFor(s))
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return bad("is not a valid URL", "look for spaces or stray characters")
	case u.Scheme != "http" && u.Scheme != "https":
		return bad("has an unsupported scheme", "use https://, or http:// for a local server")
	case u.Hostname() == "":
		return bad("has no host", baseURLHint)
	case strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions"):
		return bad("ends in /chat/completions", "stop before /chat/completions: tpsrace adds it")
	}
	return strings.TrimRight(s, "/")
}

// schemeFor suggests the scheme a URL written without one most likely needs.
func schemeFor(s string) string {
	host, _, _ := strings.Cut(s, "/")
	if strings.HasPrefix(host, "[::1]") {
		return "http://"
	}
	host, _, _ = strings.Cut(host, ":")
	if host == "localhost" || host == "0.0.0.0" || strings.HasPrefix(host, "127.") {
		return "http://"
	}
	return "https://"
}

func (p *parser) headers(n *yaml.Node, path string) map[string]string {
	if !present(n) {
		return nil
	}
	headers := map[string]string{}
	for name, f := range p.mapping(n, path, nil) {
		key := join(path, name)
		if !isHeaderName(name) {
			p.fail(f.key, key, quote(name)+" is not a valid header name", "use letters, digits and -")
			continue
		}
		x, ok := p.text(f.value, key)
		if ok && strings.ContainsFunc(x.value, func(c rune) bool { return c < ' ' && c != '\t' || c == 0x7f }) {
			p.fail(f.value, key, "the value holds a control character such as a line break", "")
			continue
		}
		if ok {
			headers[name] = x.value
		}
	}
	return headers
}

// isHeaderName reports whether s is an HTTP field name (RFC 9110 token).
func isHeaderName(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", c))
	})
}

func (p *parser) params(n *yaml.Node, path string) map[string]any {
	if !present(n) {
		return nil
	}
	params := map[string]any{}
	budget := maxParamValues
	for name, f := range p.mapping(n, path, nil) {
		if ReservedParam(name) {
			p.fail(f.key, join(path, name), name+" is set by tpsrace itself", "remove it")
			continue
		}
		params[name] = p.value(f.value, join(path, name), 1, &budget)
	}
	return params
}

// value turns YAML under params into what encoding/json can send: maps with
// string keys, lists, strings, numbers, booleans and nil. depth is how deep n
// is; budget counts down the values still allowed.
func (p *parser) value(n *yaml.Node, key string, depth int, budget *int) any {
	n = resolve(n)
	if *budget--; *budget < 0 {
		if *budget == -1 {
			p.fail(n, key, fmt.Sprintf("params hold more than %d values (aliases count each time they are used)", maxParamValues), "")
		}
		return nil
	}
	if depth > maxParamDepth {
		p.fail(n, key, fmt.Sprintf("params nest more than %d deep (or an alias contains itself)", maxParamDepth), "")
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for name, f := range p.mapping(n, key, nil) {
			m[name] = p.value(f.value, join(key, name), depth+1, budget)
		}
		return m
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, item := range n.Content {
			list[i] = p.value(item, fmt.Sprintf("%s[%d]", key, i), depth+1, budget)
		}
		return list
	}
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return nil
	case "!!bool", "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			p.fail(n, key, quote(n.Value)+" is not a valid "+strings.TrimPrefix(tag, "!!"), "")
			return nil
		}
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			p.fail(n, key, "JSON has no NaN or infinity", "")
			return nil
		}
		return v
	}
	x, _ := p.text(n, key)
	return x.value
}

func (p *parser) stringList(n *yaml.Node, key string) []string {
	if !present(n) {
		return nil
	}
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		p.fail(n, key, "expected a list of strings, got "+describe(n), `write it as ["-ngl", "99"]`)
		return nil
	}
	list := make([]string, len(n.Content))
	for i, item := range n.Content {
		x, _ := p.text(item, fmt.Sprintf("%s[%d]", key, i))
		list[i] = x.value
	}
	return list
}

// localPath expands a leading ~ in path and makes it relative to the file's directory.
func (p *parser) localPath(n *yaml.Node, key, path string) string {
	if path == "~" || strings.HasPrefix(path, "~/") {
		home, _ := p.getenv("HOME")
		if home == "" {
			p.fail(n, key, "cannot expand ~: HOME is not set", "write the full path")
			return ""
		}
		path = filepath.Join(home, path[1:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(p.file), path)
	}
	return path
}
