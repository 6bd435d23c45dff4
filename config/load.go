package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"

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
//	workload: chat    # what the race asks for (default chat): chat, tool-call,
//	                  # long-context, cached-prefix, json or multi-turn; or a mapping with its settings:
//	                  #   workload:
//	                  #     name: tool-call
//	                  #     tool: {name: get_weather, description: ..., parameters: {type: object, ...}}
//	                  #                     # the function offered (default workload.DefaultTool);
//	                  #                     # tool_choice is "required" unless params set it
//	                  #     follow_ups: ["Shorter, please."]   # multi-turn: the user turns after the prompt
//	                  #     answer: {name: report, parameters: {type: object, ...}}
//	                  #                     # json: the schema the answer must follow
//	                  #     input_tokens: [1000, 8000, 32000]   # long-context's prompt sizes;
//	                  #                     # cached-prefix: one, the prefix's (default 8000)
//	                  # One workload per race, the same for every provider: their figures must
//	                  # rank together, so a providers entry's workload: is refused. What differs
//	                  # between servers is the request, which params adjust (below).
//	sweep: [1, 4, 16, 64]
//	                  # bench and watch race each concurrency in turn (a concurrency
//	                  # sweep, docs/SWEEP.md); --sweep overrides it, --concurrency N
//	                  # races N alone instead. 2 to 16 rising levels, 1 to 1024 each
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
//	                    # They override the workload's fields too: tool_choice
//	                    # (default "required"; auto, none or a named function),
//	                    # response_format: {type: json_object} where a server has no
//	                    # json_schema (the answer is still validated against
//	                    # workload.answer, which the prompt must then describe)
//	                    # (tools under tool-call, or a json_schema response_format
//	                    # under json, would replace what answers are validated
//	                    # against: refused, see Config.CheckWorkloadParams)
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
	topLevel      = level{"at the top level", []string{"prompt", "max_tokens", "timeout", "providers", "workload", "slo", "sweep"}}
	providerLevel = level{"in a providers entry", []string{"name", "kind", "base_url", "api_key", "model", "price", "headers", "params", "timeout", "server", "args", "slo"}}
	sloLevel      = level{"under slo:", []string{"ttft", "output_tps", "e2e"}}
	timeoutLevel  = level{"under timeout:", []string{"connect", "first_token", "stall", "total"}}
	priceLevel    = level{"under price:", []string{"input_per_mtok", "output_per_mtok"}}
	levels        = []*level{&topLevel, &providerLevel, &timeoutLevel, &priceLevel, &workloadLevel, &toolLevel, &sloLevel}

	kinds = []string{KindOpenAI, KindLlamaCpp}

	// reservedParams are request fields tpsrace sets itself: replacing them
	// would break the race (a reply that does not stream measures nothing).
	reservedParams = []string{"model", "messages", "stream"}
)

// ReservedParam reports whether params may not set a request field: tpsrace
// sets model, messages and stream itself. A providers.yaml that tries is an
// error; the request skips them for a Provider built in code.
func ReservedParam(name string) bool { return slices.Contains(reservedParams, name) }

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
	cfg.Workload = p.workload(f["workload"].value)
	cfg.SLO = p.slo(f["slo"].value, "slo")
	cfg.Sweep = p.sweep(f["sweep"].value)
	cfg.Providers, cfg.Skipped = p.providers(f["providers"].value, cfg.Timeout)
	for i := range cfg.Providers {
		cfg.Providers[i].SLO = cfg.Providers[i].SLO.Or(cfg.SLO)
	}
	return cfg
}
