package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// env returns a getenv over name, value pairs.
func env(pairs ...string) func(string) (string, bool) {
	vars := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		vars[pairs[i]] = pairs[i+1]
	}
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// configErrors unpacks the joined error Parse returns.
func configErrors(t *testing.T, err error) []*Error {
	t.Helper()
	if err == nil {
		return nil
	}
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	out := make([]*Error, len(errs))
	for i, e := range errs {
		var ce *Error
		if !errors.As(e, &ce) {
			t.Fatalf("error %d is %T, not *Error: %v", i, e, e)
		}
		out[i] = ce
	}
	return out
}

func mustParse(t *testing.T, yaml string, getenv func(string) (string, bool)) (*Config, []string) {
	t.Helper()
	cfg, warnings, err := Parse("t.yaml", []byte(yaml), getenv)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return cfg, warnings
}

// parseErrorCases are bad providers.yaml files and the errors Parse
// gives for them: each want is "line:col|substring|substring...", one per
// error, in order.
var parseErrorCases = []struct {
	name string
	yaml string
	want []string
}{
	{"unknown key with did-you-mean", `
providers:
  - name: a
    base_url: https://x.test/v1
    modle: m
`, []string{`3:5|providers[0]: missing model`, `5:5|providers[0].modle: unknown key "modle" (did you mean "model"?)`}},
	{"unknown key in the wrong place", `
base_url: https://x.test/v1
providers: []
`, []string{`2:1|base_url: unknown key "base_url"|base_url belongs in a providers entry`}},
	{"a request field beside the model", `
providers:
  - {name: a, base_url: "https://x.test/v1", model: m, temperature: 0.2}
  - {name: b, base_url: "https://x.test/v1", model: m, temprature: 0.2}
`, []string{`3:56|providers[0].temperature: unknown key "temperature"|goes under params: params: {temperature: …}`, `4:56|"temprature"|params: {temperature: …}`}},
	{"unknown key in timeout", "timeout: {conect: 5s}\n", []string{`1:11|timeout.conect: unknown key "conect"|did you mean "connect"?`}},
	{"unknown key without a near one", "providers: []\ncolour: red\n", []string{`2:1|colour: unknown key|known keys: prompt, max_tokens, timeout, providers`}},
	{"unknown key in price", `
providers:
  - {name: a, base_url: "https://x.test/v1", model: m, price: {input: 1}}
`, []string{`3:64|providers[0].price.input: unknown key "input"`}},
	{"merge key", "providers: []\n<<: {prompt: x}\n", []string{`2:1|unknown key "<<"|merge keys are not supported`}},
	{"max_tokens not a number", "max_tokens: lots\n", []string{`1:13|max_tokens: expected a whole number, got "lots"`}},
	{"max_tokens a fraction", "max_tokens: 1.5\n", []string{`1:13|max_tokens: expected a whole number, got "1.5"`}},
	{"max_tokens quoted", "max_tokens: \"400\"\n", []string{`1:13|max_tokens: expected a whole number, got "400" (remove the quotes)`}},
	{"max_tokens zero", "max_tokens: 0\n", []string{`1:13|max_tokens: must be at least 1, got 0`}},
	{"max_tokens negative", "max_tokens: -5\n", []string{`1:13|max_tokens: must be at least 1, got -5`}},
	{"duplicate provider name", `
providers:
  - name: groq
    base_url: https://a.test/v1
    model: m
  - name: groq
    base_url: https://b.test/v1
    model: m
`, []string{`6:11|providers[1].name: duplicate provider name "groq" (first at line 3)|give each provider its own name`}},
	{"missing base_url", "providers:\n  - name: a\n    model: m\n", []string{`2:5|providers[0]: missing base_url|add base_url:`}},
	{"missing model", "providers:\n  - name: a\n    base_url: https://x.test/v1\n", []string{`2:5|providers[0]: missing model`}},
	{"missing name", "providers:\n  - base_url: https://x.test/v1\n    model: m\n", []string{`2:5|providers[0]: missing name`}},
	{"empty model", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: \"\"}\n", []string{`2:53|providers[0].model: model is empty`}},
	{"null model", "providers:\n  - name: a\n    base_url: https://x.test/v1\n    model:\n", []string{`4:11|providers[0].model: model is empty`}},
	{"URL without scheme", "providers:\n  - {name: a, base_url: api.groq.com/v1, model: m}\n", []string{`2:25|providers[0].base_url: "api.groq.com/v1" has no scheme (add https://)`}},
	{"local URL without scheme", "providers:\n  - {name: a, base_url: \"localhost:8080/v1\", model: m}\n", []string{`2:25|"localhost:8080/v1" has no scheme (add http://)`}},
	{"unsupported scheme", "providers:\n  - {name: a, base_url: \"ftp://x.test/v1\", model: m}\n", []string{`2:25|providers[0].base_url: "ftp://x.test/v1" has an unsupported scheme|use https://`}},
	{"URL without host", "providers:\n  - {name: a, base_url: \"https:///v1\", model: m}\n", []string{`2:25|"https:///v1" has no host`}},
	{"credentials are redacted", "providers:\n  - {name: a, base_url: \"ftp://bob:hunter2@x.test/v1\", model: m}\n", []string{`2:25|"ftp://REDACTED@x.test/v1" has an unsupported scheme`}},
	{"credentials in a broken URL are redacted", "providers:\n  - {name: a, base_url: \"https://bob:hunter2@x test/v1\", model: m}\n", []string{`2:25|"https://REDACTED@x test/v1" is not a valid URL`}},
	{"URL with /chat/completions", "providers:\n  - {name: a, base_url: \"https://x.test/v1/chat/completions\", model: m}\n", []string{`2:25|ends in /chat/completions|tpsrace adds it`}},
	{"slo unknown bound", "slo: {tft: 500ms}\n", []string{`1:7|slo.tft: unknown key "tft"|did you mean "ttft"?`}},
	{"slo speed not a number", "slo: {output_tps: fast}\n", []string{`1:19|slo.output_tps: expected a number (tokens per second), got "fast"`}},
	{"slo negative speed", "slo: {output_tps: -5}\n", []string{`1:19|slo.output_tps: must be zero or more, got "-5"`}},
	{"provider slo bad duration", "providers:\n  - name: a\n    base_url: https://x.test/v1\n    model: m\n    slo: {e2e: 10}\n", []string{`5:16|providers[0].slo.e2e: expected a duration, got the bare number 10`}},
	{"negative duration", "timeout: {stall: -5s}\n", []string{`1:18|timeout.stall: must not be negative, got "-5s"`}},
	{"bad duration", "timeout:\n  connect: 10 seconds\n", []string{`2:12|timeout.connect: expected a duration, got "10 seconds" (Go duration such as 10s`}},
	{"duration without unit", "timeout: {total: 300}\n", []string{`1:18|timeout.total: expected a duration, got the bare number 300 (add a unit, such as 300s)`}},
	{"bad provider duration", "providers:\n  - name: a\n    base_url: https://x.test/v1\n    model: m\n    timeout: {first_token: soon}\n", []string{`5:28|providers[0].timeout.first_token: expected a duration, got "soon"`}},
	{"base_url through an alias", "u: &u api.x.test\nproviders:\n  - {name: a, base_url: *u, model: m}\n", []string{`1:1|unknown key "u"`, `1:4|providers[0].base_url: "api.x.test" has no scheme`}},
	{"unknown kind", "providers:\n  - {name: a, kind: ollama, base_url: \"http://127.0.0.1:11434/v1\", model: m}\n", []string{`2:21|providers[0].kind: unknown kind "ollama"|use openai (any OpenAI-compatible API, Ollama and vLLM included) or llamacpp`}},
	{"kind in capitals", "providers:\n  - {name: a, kind: LlamaCpp, base_url: \"http://127.0.0.1:8080/v1\"}\n", []string{`2:21|unknown kind "LlamaCpp" (did you mean "llamacpp"?)`}},
	{"empty file", "", []string{`1:1|the file is empty`}},
	{"comments only", "# nothing yet\n", []string{`1:1|the file is empty`}},
	{"null document", "---\n~\n", []string{`1:1|the file is empty`}},
	{"not a mapping", "- name: a\n- name: b\n", []string{`1:1|expected settings (prompt:, max_tokens:, timeout:, providers:), got a list`}},
	{"a bare string", "hello\n", []string{`1:1|expected settings|got "hello"`}},
	{"YAML syntax error", "providers:\n  - name: a\n   model: m\n", []string{`3:4|YAML syntax error: did not find expected '-' indicator`}},
	{"YAML syntax error in a flow", "providers:\n  - {name: a,\n     model: [m}\n", []string{`3:6|YAML syntax error: did not find expected ',' or ']'`}},
	{"unterminated quote", "prompt: \"hi\nproviders: []\n", []string{`1:1|YAML syntax error: found unexpected end of stream`}},
	{"YAML syntax error in the second document", "providers: []\n---\na: b\n  c: d\n", []string{`4:3|YAML syntax error: mapping values are not allowed in this context`}},
	{"tab indentation", "providers:\n\t- name: a\n", []string{`2:1|YAML syntax error: found character that cannot start any token (indent with spaces, not tabs)`}},
	{"unknown anchor", "providers: *nope\n", []string{`1:1|YAML syntax error: unknown anchor 'nope' referenced`}},
	{"two documents", "providers: []\n---\nprompt: x\n", []string{`2:1|more than one YAML document`}},
	{"unterminated variable", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, api_key: \"${GROQ_API_KEY\"}\n", []string{`2:65|providers[0].api_key: unterminated ${|$$ for a literal $`}},
	{"bad variable name", "prompt: \"cost ${1X}\"\n", []string{`1:9|prompt: ${...} must hold a variable name`}},
	{"unset variable in prompt", "prompt: ${PROMPT}\n", []string{`1:9|prompt: PROMPT is not set`}},
	{"empty prompt", "prompt: \"  \"\n", []string{`1:9|prompt: prompt is empty`}},
	{"duplicate key", "providers:\n  - name: a\n    base_url: https://x.test/v1\n    model: m\n    model: n\n", []string{`5:5|providers[0].model: duplicate key "model" (first at line 4)`}},
	{"providers not a list", "providers:\n  name: a\n", []string{`2:3|providers: expected a list of providers, got a mapping|start each provider with "- name:"`}},
	{"entry not a mapping", "providers:\n  - groq\n", []string{`2:5|providers[0]: expected a provider (name:, base_url:, model:...), got "groq"`}},
	{"wrong type for a string", "providers:\n  - {name: [a], base_url: \"https://x.test/v1\", model: m}\n", []string{`2:12|providers[0].name: expected a string, got a list`}},
	{"wrong type for a key", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, api_key: {k: v}}\n", []string{`2:65|providers[0].api_key: expected a string, got a mapping`}},
	{"server on an openai provider", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, server: llama-server}\n", []string{`2:56|providers[0].server: server applies only to kind: llamacpp`}},
	{"args on an attached llama-server", "providers:\n  - {name: a, kind: llamacpp, base_url: \"http://127.0.0.1:8080/v1\", args: [-ngl]}\n", []string{`2:69|providers[0].args: args applies only when tpsrace starts llama-server (no base_url)`}},
	{"spawned llama-server without model", "providers:\n  - {name: a, kind: llamacpp}\n", []string{`2:5|providers[0]: missing model (give a GGUF file`}},
	{"args not a list", "providers:\n  - {name: a, kind: llamacpp, model: /m.gguf, args: \"-ngl 99\"}\n", []string{`2:53|providers[0].args: expected a list of strings, got "-ngl 99"`}},
	{"reserved params", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, params: {stream: false}}\n", []string{`2:65|providers[0].params.stream: stream is set by tpsrace itself (remove it)`}},
	{"params NaN", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, params: {t: .nan}}\n", []string{`2:68|providers[0].params.t: JSON has no NaN or infinity`}},
	{"bad header name", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, headers: {\"X Title\": t}}\n", []string{`2:66|providers[0].headers.X Title: "X Title" is not a valid header name`}},
	{"header value with a line break", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, headers: {X-A: \"a\\nb\"}}\n", []string{`2:71|providers[0].headers.X-A: the value holds a control character`}},
	{"negative price", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, price: {input_per_mtok: -1}}\n", []string{`2:80|providers[0].price.input_per_mtok: must be zero or more, got "-1"`}},
	{"price not a number", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, price: {output_per_mtok: cheap}}\n", []string{`2:81|providers[0].price.output_per_mtok: expected a number (USD per million tokens), got "cheap"`}},
	{"price not a mapping", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, price: 0.5}\n", []string{`2:63|providers[0].price: expected a mapping (key: value), got "0.5"`}},
	{"colon in a value", "prompt: Summarize this: the cache\nproviders: []\n", []string{`1:9|mapping values are not allowed|quote the value, prompt: "Summarize this: the cache"`}},
	{"variable in a flow mapping", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, api_key: ${GROQ_API_KEY}}\n", []string{`2:65|quote it: "${GROQ_API_KEY}"; inside {…} its braces end the mapping`}},
	{"price with a currency sign", "providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, price: {input_per_mtok: \"$0.59\"}}\n", []string{`2:80|providers[0].price.input_per_mtok: expected a number (USD per million tokens), got "$0.59" (write a number: 0.59)`}},
	{"quoted number", "max_tokens: \"400\"\n", []string{`1:13|max_tokens: expected a whole number, got "400" (remove the quotes)`}},
	{"list item without a space", "providers:\n  -name: a\n   base_url: https://x.test/v1\n", []string{`3:4|put a space after the dash of a list item: "- name:"`}},
	{"lone list item without a space", "providers:\n  -name: a\n", []string{`2:3|providers: expected a list of providers, got a mapping (put a space after the dash of a list item: "- name:")`}},
	{"every error, in file order", `
max_tokens: lots
providers:
  - name: a
    base_url: api.a.test/v1
    modle: m
  - name: a
    kind: openai
timeout: {connect: 10 seconds}
`, []string{
		`2:13|max_tokens: expected a whole number`,
		`4:5|providers[0]: missing model`,
		`5:15|providers[0].base_url: "api.a.test/v1" has no scheme`,
		`6:5|providers[0].modle: unknown key`,
		`7:5|providers[1]: missing base_url`,
		`7:5|providers[1]: missing model`,
		`7:11|duplicate provider name "a" (first at line 4)`,
		`9:20|timeout.connect: expected a duration`,
	}},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range parseErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _, err := Parse("t.yaml", []byte(tt.yaml), env())
			if cfg != nil {
				t.Errorf("Config is %+v, want nil with an error", cfg)
			}
			errs := configErrors(t, err)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(tt.want), strings.Join(got, "\n"))
			}
			for i, want := range tt.want {
				parts := strings.Split(want, "|")
				if prefix := "t.yaml:" + parts[0] + ": "; !strings.HasPrefix(got[i], prefix) {
					t.Errorf("error %d = %q, want it to start with %q", i, got[i], prefix)
				}
				for _, sub := range parts[1:] {
					if !strings.Contains(got[i], sub) {
						t.Errorf("error %d = %q, want it to contain %q", i, got[i], sub)
					}
				}
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error shows a password: %v", err)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{File: "providers.yaml", Line: 12, Col: 5, Key: "providers[1].modle", Msg: `unknown key "modle"`, Hint: `did you mean "model"?`}
	if got, want := e.Error(), `providers.yaml:12:5: providers[1].modle: unknown key "modle" (did you mean "model"?)`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e = &Error{File: "p.yaml", Line: 1, Col: 1, Msg: "the file is empty"}
	if got, want := e.Error(), "p.yaml:1:1: the file is empty"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

const fullExample = `prompt: "Say hi."
max_tokens: 64
timeout: {connect: 5s, first_token: 45s}
providers:
  - name: groq
    kind: openai
    base_url: https://api.groq.com/openai/v1/
    api_key: ${GROQ_API_KEY}
    model: llama-3.3-70b-versatile
    price: {input_per_mtok: 0.59, output_per_mtok: 0.79}
    headers: {X-Title: tpsrace}
    params: {temperature: 0, stop: ["\n\n"], response_format: {type: text}}
    timeout: {first_token: 30s}
  - name: laptop
    kind: llamacpp
    model: ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf
    server: ~/bin/llama-server
    args: ["-ngl", "99", "--parallel", "4"]
  - name: workstation
    kind: llamacpp
    base_url: http://127.0.0.1:8080/v1
`

func TestParseFullExample(t *testing.T) {
	cfg, warnings := mustParse(t, fullExample, env("GROQ_API_KEY", "gsk-test", "HOME", "/home/u"))
	if len(warnings) != 0 || len(cfg.Skipped) != 0 {
		t.Errorf("warnings %q, skipped %v; want none", warnings, cfg.Skipped)
	}
	if cfg.Path != "t.yaml" || cfg.Prompt != "Say hi." || cfg.MaxTokens != 64 || cfg.Simulated() {
		t.Errorf("Path %q, Prompt %q, MaxTokens %d, Simulated %v", cfg.Path, cfg.Prompt, cfg.MaxTokens, cfg.Simulated())
	}
	global := Timeouts{Connect: 5 * time.Second, FirstToken: 45 * time.Second, Stall: DefaultTimeouts.Stall, Total: DefaultTimeouts.Total}
	if cfg.Timeout != global {
		t.Errorf("Config.Timeout = %+v, want %+v", cfg.Timeout, global)
	}
	want := []Provider{{
		Name: "groq", Kind: KindOpenAI, BaseURL: "https://api.groq.com/openai/v1",
		APIKey: "gsk-test", KeyVar: "GROQ_API_KEY", Model: "llama-3.3-70b-versatile",
		Price:   &Price{InputPerMTok: 0.59, OutputPerMTok: 0.79},
		Headers: map[string]string{"X-Title": "tpsrace"},
		Params:  map[string]any{"temperature": 0, "stop": []any{"\n\n"}, "response_format": map[string]any{"type": "text"}},
		Timeout: Timeouts{Connect: 5 * time.Second, FirstToken: 30 * time.Second, Stall: DefaultTimeouts.Stall, Total: DefaultTimeouts.Total},
		Where:   "t.yaml:5:5",
	}, {
		Name: "laptop", Kind: KindLlamaCpp, Model: "qwen2.5-1.5b-instruct-q4_k_m",
		ModelPath: "/home/u/models/qwen2.5-1.5b-instruct-q4_k_m.gguf", Server: "/home/u/bin/llama-server",
		Args: []string{"-ngl", "99", "--parallel", "4"}, Timeout: global, Where: "t.yaml:14:5",
	}, {
		Name: "workstation", Kind: KindLlamaCpp, BaseURL: "http://127.0.0.1:8080/v1", Model: "default",
		Timeout: global, Where: "t.yaml:19:5",
	}}
	if !reflect.DeepEqual(cfg.Providers, want) {
		t.Errorf("Providers =\n%#v\nwant\n%#v", cfg.Providers, want)
	}
	if !cfg.Providers[1].Spawned() || cfg.Providers[2].Spawned() {
		t.Errorf("Spawned() = %v, %v; want true, false", cfg.Providers[1].Spawned(), cfg.Providers[2].Spawned())
	}
	if _, err := json.Marshal(cfg.Providers[0].Params); err != nil {
		t.Errorf("params do not marshal to JSON: %v", err)
	}
}

func TestParseDefaults(t *testing.T) {
	for _, yaml := range []string{"providers: []\n", "providers:\n", "prompt: \"Explain how a CPU cache works in three paragraphs.\"\n"} {
		cfg, _ := mustParse(t, yaml, env())
		if cfg.Prompt != DefaultPrompt || cfg.MaxTokens != DefaultMaxTokens || cfg.Timeout != DefaultTimeouts || len(cfg.Providers) != 0 {
			t.Errorf("%q: got %+v, want the defaults and no providers", yaml, cfg)
		}
	}
	cfg, _ := mustParse(t, "providers:\n  - {name: spawned, kind: llamacpp, model: m.gguf}\n", env())
	if p := cfg.Providers[0]; p.Server != "llama-server" || p.ModelPath != "m.gguf" || p.Timeout != DefaultTimeouts {
		t.Errorf("got %+v, want Server llama-server, ModelPath m.gguf and the default timeouts", p)
	}
}

func TestRelativePathsFollowTheFile(t *testing.T) {
	cfg, _, err := Parse(filepath.Join("conf", "providers.yaml"), []byte("providers:\n  - {name: a, kind: llamacpp, model: models/m.gguf, server: ./bin/llama-server}\n"), env())
	if err != nil {
		t.Fatal(err)
	}
	if p := cfg.Providers[0]; p.ModelPath != filepath.Join("conf", "models", "m.gguf") || p.Server != filepath.Join("conf", "bin", "llama-server") {
		t.Errorf("ModelPath %q, Server %q; want them under conf/", p.ModelPath, p.Server)
	}
	_, _, err = Parse("p.yaml", []byte("providers:\n  - {name: a, kind: llamacpp, model: ~/m.gguf}\n"), env())
	if err == nil || !strings.Contains(err.Error(), "p.yaml:2:38: providers[0].model: cannot expand ~: HOME is not set") {
		t.Errorf("err = %v, want one about HOME", err)
	}
}

func TestEnvExpansion(t *testing.T) {
	yaml := `prompt: "Costs $5, or $$5: ${TOPIC}"
providers:
  - name: ${NAME}
    base_url: https://${HOST}/v1
    api_key: Bearer-${KEY}
    model: ${MODEL}
    headers: {X-Team: "${TEAM}"}
    params: {user: "${TEAM}", n: 1}
`
	cfg, warnings := mustParse(t, yaml, env("TOPIC", "caches", "NAME", "cloud", "HOST", "api.x.test", "KEY", "k1", "MODEL", "m1", "TEAM", "blue"))
	if cfg.Prompt != "Costs $5, or $5: caches" {
		t.Errorf("Prompt = %q", cfg.Prompt)
	}
	p := cfg.Providers[0]
	if p.Name != "cloud" || p.BaseURL != "https://api.x.test/v1" || p.APIKey != "Bearer-k1" || p.KeyVar != "KEY" || p.Model != "m1" ||
		p.Headers["X-Team"] != "blue" || p.Params["user"] != "blue" {
		t.Errorf("got %+v", p)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q, want none: the key comes from a variable", warnings)
	}
}

func TestUnsetVariablesSkipProviders(t *testing.T) {
	yaml := `providers:
  - name: groq
    base_url: https://api.groq.com/openai/v1
    api_key: ${GROQ_API_KEY}
    model: llama-3.3-70b-versatile
  - name: azure
    base_url: https://${AZURE_HOST}/v1
    api_key: ${AZURE_KEY}
    model: gpt-4o-mini
  - name: local
    base_url: http://127.0.0.1:8080/v1
    model: m
`
	cfg, _ := mustParse(t, yaml, env("GROQ_API_KEY", "", "AZURE_HOST", "x.test"))
	wantSkipped := []Notice{
		{Provider: "groq", Where: "t.yaml:2:5", Reason: "GROQ_API_KEY is not set"},
		{Provider: "azure", Where: "t.yaml:6:5", Reason: "AZURE_KEY is not set"},
	}
	if !reflect.DeepEqual(cfg.Skipped, wantSkipped) {
		t.Errorf("Skipped = %+v, want %+v", cfg.Skipped, wantSkipped)
	}
	if got := cfg.Skipped[0].String(); got != "t.yaml:2:5: skipping groq: GROQ_API_KEY is not set" {
		t.Errorf("Notice.String() = %q", got)
	}
	if len(cfg.Providers) != 1 || cfg.Providers[0].Name != "local" || cfg.Providers[0].APIKey != "" {
		t.Errorf("Providers = %+v, want only local, without a key", cfg.Providers)
	}

	cfg, _ = mustParse(t, yaml, env())
	if got := cfg.Skipped[1].Reason; got != "AZURE_HOST and AZURE_KEY are not set" {
		t.Errorf("Reason = %q", got)
	}
}

// An entry left out for a missing key is still checked, so mistakes show up
// before the key is at hand.
func TestSkippedProvidersAreStillChecked(t *testing.T) {
	_, _, err := Parse("t.yaml", []byte("providers:\n  - {name: a, base_url: api.a.test, api_key: \"${A_KEY}\", model: m}\n"), env())
	if errs := configErrors(t, err); len(errs) != 1 || !strings.Contains(errs[0].Error(), "has no scheme") {
		t.Errorf("err = %v, want the missing scheme", err)
	}
}

func TestAliases(t *testing.T) {
	yaml := `providers:
  - name: a
    base_url: &url https://x.test/v1
    model: m
    timeout: &fast {first_token: 5s}
    params: &p {temperature: 0}
  - name: b
    base_url: *url
    model: m
    timeout: *fast
    params: *p
`
	cfg, _ := mustParse(t, yaml, env())
	b := cfg.Providers[1]
	if b.BaseURL != "https://x.test/v1" || b.Timeout.FirstToken != 5*time.Second || b.Params["temperature"] != 0 {
		t.Errorf("got %+v", b)
	}

	// An alias that contains itself must end, with an error, not loop.
	_, _, err := Parse("t.yaml", []byte("providers:\n  - {name: a, base_url: \"https://x.test/v1\", model: m, params: &p {x: *p}}\n"), env())
	if errs := configErrors(t, err); len(errs) != 1 || !strings.Contains(errs[0].Msg, "or an alias contains itself") {
		t.Errorf("err = %v, want one about an alias in itself", err)
	}

	// Aliases that multiply values (10, 100, 1000... of them) are cut short too.
	laughs := "providers:\n  - name: a\n    base_url: https://x.test/v1\n    model: m\n    params:\n      a: &a [" + strings.Repeat("x, ", 9) + "x]\n"
	for _, name := range "bcde" {
		prev := "*" + string(name-1)
		laughs += fmt.Sprintf("      %c: &%c [%s%s]\n", name, name, strings.Repeat(prev+", ", 9), prev)
	}
	_, _, err = Parse("t.yaml", []byte(laughs), env())
	if errs := configErrors(t, err); len(errs) != 1 || !strings.Contains(errs[0].Msg, "params hold more than 1000 values") {
		t.Errorf("err = %v, want one about too many values", err)
	}
}

func TestClosest(t *testing.T) {
	keys := providerLevel.keys
	for key, want := range map[string]string{
		"modle": "model", "Model": "model", "base-url": "base_url", "baseurl": "base_url",
		"apikey": "api_key", "header": "headers", "nmae": "name", "xyz": "", "temperature": "",
	} {
		if got := Closest(key, keys); got != want {
			t.Errorf("Closest(%q) = %q, want %q", key, got, want)
		}
	}
}

// The repository's own example must always load, and so must its
// commented-out local entries once uncommented.
func TestRepositoryExample(t *testing.T) {
	vars := []string{"GROQ_API_KEY", "CEREBRAS_API_KEY", "OPENAI_API_KEY", "TOGETHER_API_KEY", "OPENROUTER_API_KEY", "DEEPSEEK_API_KEY"}
	pairs := []string{"HOME", "/home/u"}
	for _, v := range vars {
		pairs = append(pairs, v, "key-"+v)
	}
	cfg, warnings, err := Load("../providers.yaml", env(pairs...))
	if err != nil {
		t.Fatalf("../providers.yaml: %v", err)
	}
	if len(warnings) != 0 || len(cfg.Skipped) != 0 || len(cfg.Providers) != len(vars) {
		t.Errorf("warnings %q, skipped %v, %d providers; want no warnings, none skipped, %d providers", warnings, cfg.Skipped, len(cfg.Providers), len(vars))
	}
	for _, p := range cfg.Providers {
		if p.Price == nil || p.KeyVar == "" {
			t.Errorf("%s: price %v, key variable %q; want both", p.Name, p.Price, p.KeyVar)
		}
	}

	cfg, _, err = Load("../providers.yaml", env())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Skipped) != len(vars) || len(cfg.Providers) != 0 {
		t.Errorf("without keys: skipped %v and kept %v, want every provider skipped (so the simulator runs)", cfg.Skipped, cfg.Providers)
	}

	data, err := os.ReadFile("../providers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	commentedEntry := regexp.MustCompile(`(?m)^  # ((- |  )[a-z_]+: )`)
	uncommented := commentedEntry.ReplaceAll(data, []byte("  $1"))
	cfg, _, err = Parse("providers.yaml", uncommented, env(pairs...))
	if err != nil {
		t.Fatalf("uncommented: %v", err)
	}
	var local []string
	for _, p := range cfg.Providers[len(vars):] {
		local = append(local, p.Name)
	}
	if want := []string{"llama.cpp", "ollama", "laptop"}; !reflect.DeepEqual(local, want) {
		t.Errorf("uncommented local entries = %q, want %q", local, want)
	}
}

// slo: at the top is every provider's; a provider's own bounds win, bound by bound.
func TestSLOMerges(t *testing.T) {
	cfg, _, err := Parse("p.yaml", []byte("slo: {ttft: 500ms, output_tps: 50, e2e: 10s}\nproviders:\n"+
		"  - {name: a, base_url: https://a.test/v1, model: m}\n"+
		"  - {name: b, base_url: https://b.test/v1, model: m, slo: {output_tps: 100.5}}\n"), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	want := SLO{TTFT: 500 * time.Millisecond, OutputTPS: 50, E2E: 10 * time.Second}
	if cfg.SLO != want || cfg.Providers[0].SLO != want {
		t.Errorf("file %+v, a %+v, want %+v", cfg.SLO, cfg.Providers[0].SLO, want)
	}
	want.OutputTPS = 100.5
	if cfg.Providers[1].SLO != want {
		t.Errorf("b %+v, want %+v", cfg.Providers[1].SLO, want)
	}
}
