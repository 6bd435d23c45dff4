package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Used when the file does not set prompt or max_tokens.
const (
	DefaultPrompt    = "Explain how a CPU cache works in three paragraphs."
	DefaultMaxTokens = 400
)

// Load reads the providers file at path and parses it (see Parse). It also
// checks the file's permissions, so that an API key written in a file other
// users can read gets a louder warning.
func Load(path string, getenv func(string) (string, bool)) (*Config, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	var readable fs.FileMode
	// Windows reports no meaningful permission bits.
	if perm := info.Mode().Perm(); perm&0o044 != 0 && runtime.GOOS != "windows" {
		readable = perm
	}
	return parse(path, data, getenv, readable)
}

// Parse turns the YAML in data into a Config. name is the file's name, used
// in messages and as the base of relative paths; getenv looks up ${VAR}s (nil
// means os.LookupEnv). Besides the Config, Parse returns warnings, each
// starting with file:line:col, and an error that joins every *Error found,
// in file order; the Config is nil when there is an error.
//
// The file looks like this (only name, and base_url and model where noted,
// are required):
//
//	prompt: "Explain how a CPU cache works in three paragraphs."
//	                  # the user message sent to every provider (default DefaultPrompt)
//	max_tokens: 400   # max_tokens sent to every provider, at least 1 (default 400)
//	timeout:          # limits for every provider, as Go durations (10s, 1m30s, 500ms);
//	                  # a phase left out or 0 uses DefaultTimeouts
//	  connect: 10s      # dial, TLS and waiting for response headers
//	  first_token: 60s  # from sending the request to the first text
//	  stall: 20s        # the longest silence allowed between two reads
//	  total: 5m         # from sending the request to the end of the stream
//	providers:        # the racers, in order; an empty or missing list is not an error
//	  - name: groq      # required and unique: the label on the dashboard
//	    kind: openai    # openai (default): any OpenAI-compatible API, Ollama and vLLM included;
//	                    # llamacpp: llama.cpp's llama-server
//	    base_url: https://api.groq.com/openai/v1
//	                    # the API root, before /chat/completions; http or https.
//	                    # Required, except for kind llamacpp where leaving it out
//	                    # means tpsrace starts llama-server itself
//	    api_key: ${GROQ_API_KEY}
//	                    # sent as a bearer token; leave it out for servers that need none
//	    model: llama-3.3-70b-versatile
//	                    # the model id; required for kind openai. For kind llamacpp:
//	                    # with base_url optional (default "default"), without it the
//	                    # GGUF file to serve (Provider.ModelPath; Model is its name)
//	    price: {input_per_mtok: 0.59, output_per_mtok: 0.79}
//	                    # USD per million tokens, for cost figures
//	    headers: {X-Title: tpsrace}
//	                    # extra HTTP headers
//	    params: {temperature: 0}
//	                    # extra request body fields, passed through as they are
//	                    # (except model, messages and stream, which tpsrace sets)
//	    timeout: {first_token: 30s}
//	                    # this provider's limits, over the file's, over DefaultTimeouts
//	    server: llama-server
//	                    # kind llamacpp without base_url: the llama-server binary
//	                    # (default llama-server, looked up in PATH)
//	    args: ["-ngl", "99", "--parallel", "4"]
//	                    # kind llamacpp without base_url: extra llama-server flags
//
// Every text value (all but numbers and durations) expands ${VAR} from getenv;
// $$ is a literal $. A provider that uses an unset or empty variable is left
// out with a Notice in Config.Skipped instead of failing the file, so one file
// can list every provider and race those whose keys are at hand. An api_key
// written out rather than as ${VAR} works, with a warning. File paths (model
// files, server) expand a leading ~ and are relative to the file's directory.
//
// Messages quote what the file says, never what a variable expands to, and
// never an api_key or header value.
func Parse(name string, data []byte, getenv func(string) (string, bool)) (*Config, []string, error) {
	return parse(name, data, getenv, 0)
}

// parser reads one file, collecting every problem rather than stopping at the first.
type parser struct {
	file     string
	getenv   func(string) (string, bool)
	readable fs.FileMode // the file's permissions, when other users can read it
	errs     []*Error
	warnings []string
	unset    []string // unset variables met by text since the last reset
}

func parse(file string, data []byte, getenv func(string) (string, bool), readable fs.FileMode) (*Config, []string, error) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	p := &parser{file: file, getenv: getenv, readable: readable}
	var cfg *Config
	if root := p.document(data); root != nil {
		cfg = p.config(root)
	}
	if len(p.errs) == 0 {
		return cfg, p.warnings, nil
	}
	slices.SortStableFunc(p.errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	errs := make([]error, len(p.errs))
	for i, e := range p.errs {
		errs[i] = e
	}
	return nil, p.warnings, errors.Join(errs...)
}

// Where each mapping's keys belong, for unknown-key hints.
type level struct {
	where string // "under timeout:"
	keys  []string
}

var (
	topLevel      = level{"at the top level", []string{"prompt", "max_tokens", "timeout", "providers"}}
	providerLevel = level{"in a providers entry", []string{"name", "kind", "base_url", "api_key", "model", "price", "headers", "params", "timeout", "server", "args"}}
	timeoutLevel  = level{"under timeout:", []string{"connect", "first_token", "stall", "total"}}
	priceLevel    = level{"under price:", []string{"input_per_mtok", "output_per_mtok"}}
	levels        = []*level{&topLevel, &providerLevel, &timeoutLevel, &priceLevel}

	kinds = []string{KindOpenAI, KindLlamaCpp}

	// reservedParams are request fields tpsrace sets itself: replacing them
	// would break the race (a reply that does not stream measures nothing).
	reservedParams = []string{"model", "messages", "stream"}
)

// Bounds on one provider's params: YAML aliases could otherwise multiply
// values without end, or nest a value in itself.
const (
	maxParamValues = 1000
	maxParamDepth  = 32
)

const (
	baseURLHint   = "the API root, such as https://api.groq.com/openai/v1"
	emptyFileHint = "list the providers to race under providers:"
)

// document parses data as one YAML document and returns its top mapping.
func (p *parser) document(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, extra yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			p.failAt(1, 1, "", "the file is empty", emptyFileHint)
		} else {
			p.errs = append(p.errs, syntaxError(p.file, data, err))
		}
		return nil
	}
	switch err := dec.Decode(&extra); {
	case err == nil:
		p.fail(&extra, "", "the file holds more than one YAML document", "remove the second --- and what follows it")
	case err != io.EOF:
		p.errs = append(p.errs, syntaxError(p.file, data, err))
	}
	if len(doc.Content) == 0 || isNull(resolve(doc.Content[0])) {
		p.failAt(1, 1, "", "the file is empty", emptyFileHint)
		return nil
	}
	root := resolve(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		p.fail(root, "", "expected settings (prompt:, max_tokens:, timeout:, providers:), got "+describe(root), "start with providers: and a list of entries")
		return nil
	}
	return root
}

func (p *parser) config(root *yaml.Node) *Config {
	cfg := &Config{Path: p.file, Prompt: DefaultPrompt, MaxTokens: DefaultMaxTokens}
	f := p.mapping(root, "", &topLevel)
	if v := f["prompt"].value; v != nil {
		if x, ok := p.required(v, "", "prompt", "leave it out for the default prompt"); ok {
			cfg.Prompt = x.value
		} else if len(p.unset) > 0 {
			p.fail(v, "prompt", notSet(p.unset), "set it, or write the prompt in the file")
		}
	}
	if v := f["max_tokens"].value; v != nil {
		if n, ok := p.wholeNumber(v, "max_tokens"); ok && n < 1 {
			p.fail(v, "max_tokens", fmt.Sprintf("must be at least 1, got %d", n), "")
		} else if ok {
			cfg.MaxTokens = n
		}
	}
	cfg.Timeout = p.timeouts(f["timeout"].value, "timeout").Or(DefaultTimeouts)
	cfg.Providers, cfg.Skipped = p.providers(f["providers"].value, cfg.Timeout)
	return cfg
}

func (p *parser) providers(n *yaml.Node, defaults Timeouts) (providers []Provider, skipped []Notice) {
	if !present(n) {
		return nil, nil
	}
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		p.fail(n, "providers", "expected a list of providers, got "+describe(n), `start each provider with "- name:"`)
		return nil, nil
	}
	firstLine := map[string]int{} // provider name -> line of the entry that has it
	for i, entry := range n.Content {
		pr, notice := p.provider(resolve(entry), fmt.Sprintf("providers[%d]", i), defaults, firstLine)
		if notice != nil {
			skipped = append(skipped, *notice)
		} else {
			providers = append(providers, pr)
		}
	}
	return providers, skipped
}

// provider reads one providers entry. It returns a Notice instead when the
// entry uses an unset variable.
func (p *parser) provider(n *yaml.Node, path string, defaults Timeouts, firstLine map[string]int) (Provider, *Notice) {
	pr := Provider{Kind: KindOpenAI, Where: p.where(n)}
	if n.Kind != yaml.MappingNode {
		p.fail(n, path, "expected a provider (name:, base_url:, model:...), got "+describe(n), "")
		return pr, nil
	}
	p.unset = nil
	f := p.mapping(n, path, &providerLevel)
	key := func(name string) string { return join(path, name) }

	if v := f["name"].value; v == nil {
		p.fail(n, path, "missing name", "add name: a short label for the dashboard")
	} else if x, ok := p.required(v, path, "name", "give it a short label for the dashboard"); ok {
		if line, taken := firstLine[x.value]; taken {
			p.fail(v, key("name"), fmt.Sprintf("duplicate provider name %s (first at line %d)", quote(resolve(v).Value), line), "give each provider its own name")
		} else {
			firstLine[x.value] = n.Line
		}
		pr.Name = x.value
	}

	kindKnown := true
	if v := f["kind"].value; v != nil {
		x, ok := p.required(v, path, "kind", "leave it out for openai")
		switch {
		case !ok:
			kindKnown = false
		case slices.Contains(kinds, x.value):
			pr.Kind = x.value
		default:
			kindKnown = false
			hint := "use openai (any OpenAI-compatible API, Ollama and vLLM included) or llamacpp"
			if s := closest(x.value, kinds); s != "" {
				hint = fmt.Sprintf("did you mean %q?", s)
			}
			p.fail(v, key("kind"), "unknown kind "+quote(resolve(v).Value), hint)
		}
	}

	baseNode := f["base_url"].value
	if baseNode != nil {
		if x, ok := p.required(baseNode, path, "base_url", baseURLHint); ok {
			pr.BaseURL = p.baseURL(baseNode, key("base_url"), x.value)
		}
	}

	if v := f["api_key"].value; v != nil {
		x, ok := p.required(v, path, "api_key", "leave it out for a server that needs no key")
		if len(x.refs) > 0 {
			pr.KeyVar = x.refs[0]
		}
		if ok {
			pr.APIKey = Secret(x.value)
			if len(x.refs) == 0 {
				p.warnLiteralKey(v, key("api_key"), pr.Name)
			}
		}
	}

	modelNode := f["model"].value
	model, modelOK := expansion{}, false
	if modelNode != nil {
		model, modelOK = p.required(modelNode, path, "model", "give the model id, or for kind llamacpp a GGUF file")
	}

	if v := f["price"].value; present(v) {
		pf := p.mapping(v, key("price"), &priceLevel)
		pr.Price = &Price{
			InputPerMTok:  p.price(pf["input_per_mtok"].value, key("price.input_per_mtok")),
			OutputPerMTok: p.price(pf["output_per_mtok"].value, key("price.output_per_mtok")),
		}
	}
	pr.Headers = p.headers(f["headers"].value, key("headers"))
	pr.Params = p.params(f["params"].value, key("params"))
	pr.Timeout = p.timeouts(f["timeout"].value, key("timeout")).Or(defaults)

	switch {
	case !kindKnown:
		// Which keys it needs depends on the kind.
	case pr.Kind == KindOpenAI:
		if baseNode == nil {
			p.fail(n, path, "missing base_url", "add base_url: "+baseURLHint)
		}
		if modelNode == nil {
			p.fail(n, path, "missing model", "add model: the model id the API expects")
		}
		pr.Model = model.value
		p.spawnOnly(f, path, "applies only to kind: llamacpp", "remove it")
	case baseNode != nil: // llamacpp, attached to a running llama-server
		pr.Model = "default"
		if modelNode != nil {
			pr.Model = model.value
		}
		p.spawnOnly(f, path, "applies only when tpsrace starts llama-server (no base_url)", "remove it, or remove base_url to have tpsrace start llama-server")
	default: // llamacpp, spawned by tpsrace
		if modelNode == nil {
			p.fail(n, path, "missing model", "give a GGUF file (model: ~/models/name.gguf) to start llama-server, or the base_url of a running one")
		} else if modelOK {
			pr.ModelPath = p.localPath(modelNode, key("model"), model.value)
			pr.Model = strings.TrimSuffix(filepath.Base(pr.ModelPath), ".gguf")
		}
		pr.Server = "llama-server"
		if v := f["server"].value; v != nil {
			if x, ok := p.required(v, path, "server", "leave it out for llama-server from PATH"); ok {
				pr.Server = x.value
				if strings.ContainsAny(x.value, "/~"+string(filepath.Separator)) {
					pr.Server = p.localPath(v, key("server"), x.value)
				}
			}
		}
		pr.Args = p.stringList(f["args"].value, key("args"))
	}

	if len(p.unset) > 0 {
		name := cmp.Or(pr.Name, path)
		return pr, &Notice{Provider: name, Where: pr.Where, Reason: notSet(p.unset)}
	}
	return pr, nil
}

// spawnOnly reports server and args in an entry where tpsrace does not start llama-server.
func (p *parser) spawnOnly(f map[string]field, path, msg, hint string) {
	for _, name := range []string{"server", "args"} {
		if k := f[name].key; k != nil {
			p.fail(k, join(path, name), name+" "+msg, hint)
		}
	}
}

func (p *parser) warnLiteralKey(n *yaml.Node, key, provider string) {
	w := p.where(n) + ": " + key + ": API key written in the file"
	if p.readable != 0 {
		w += fmt.Sprintf(" and the file is readable by other users (mode %04o): chmod 600 %s, or", uint32(p.readable), p.file)
	} else {
		w += ";"
	}
	w += fmt.Sprintf(" keep it in the environment and write api_key: ${%s}", envName(provider))
	p.warnings = append(p.warnings, w)
}

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
	if home := homeOf(name); home != nil {
		hint = fmt.Sprintf("%s belongs %s", name, home.where)
	} else if s := closest(name, lv.keys); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
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
		if slices.Contains(reservedParams, name) {
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

// quotedNumberHint explains why "400", quoted, is not a number.
func quotedNumberHint(n *yaml.Node) string {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return "remove the quotes"
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
