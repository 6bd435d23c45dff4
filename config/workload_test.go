package config

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tpsrace/workload"
)

func TestWorkloadSettings(t *testing.T) {
	for _, tc := range []struct {
		yaml  string
		name  string
		sizes []int
		tool  string
	}{
		{"providers: []\n", "", nil, ""},
		{"workload: chat\n", "", nil, ""},
		{"workload: tool-call\n", "tool-call", nil, "get_weather"},
		{"workload: {name: long-context}\n", "long-context", workload.DefaultInputTokens, ""},
		{"workload: {name: long-context, input_tokens: [500, 4000]}\n", "long-context", []int{500, 4000}, ""},
		{"workload: {name: cached-prefix, input_tokens: [2000]}\n", "cached-prefix", []int{2000}, ""},
		{"workload: json\n", "json", nil, ""},
		{"workload: {name: multi-turn, follow_ups: [\"Why?\"]}\n", "multi-turn", nil, ""},
		{`workload:
  name: tool-call
  tool:
    name: search
    description: Search the web.
    parameters: {type: object, properties: {query: {type: string}}, required: [query]}
`, "tool-call", nil, "search"},
	} {
		cfg, _, err := Parse("p.yaml", []byte(tc.yaml), nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		w := cfg.Workload
		if w.Name != tc.name || !slices.Equal(w.InputTokens, tc.sizes) || (w.Tool == nil) != (tc.tool == "") || w.Tool != nil && w.Tool.Name != tc.tool {
			t.Errorf("%q: workload %+v", tc.yaml, w)
		}
		if w.Tool != nil && !json.Valid(w.Tool.Parameters) {
			t.Errorf("%q: parameters %s are not JSON", tc.yaml, w.Tool.Parameters)
		}
	}
}

// Mistakes in workload: are reported as every other key's: file:line:col,
// the key, and a did-you-mean.
func TestWorkloadErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"workload: tool-cal\n", `p.yaml:1:11: workload: unknown workload "tool-cal" (did you mean "tool-call"?)`},
		{"workload: {name: long-contex}\n", `p.yaml:1:18: workload.name: unknown workload "long-contex" (did you mean "long-context"?)`},
		{"workload: {nme: chat}\n", `p.yaml:1:12: workload.nme: unknown key "nme" (did you mean "name"?)`},
		{"workload: {input_tokens: [1]}\n", `p.yaml:1:11: workload: missing name`},
		{"workload: {name: chat, input_tokens: [1000]}\n", `p.yaml:1:24: workload.input_tokens: input_tokens applies only to workloads long-context and cached-prefix`},
		{"workload: {name: long-context, input_tokens: [0]}\n", `p.yaml:1:47: workload.input_tokens[0]: must be 1 to 2000000 tokens, got 0`},
		{"workload: {name: long-context, input_tokens: 1000}\n", `p.yaml:1:46: workload.input_tokens: expected a list of token counts`},
		{"workload: {name: tool-call, tool: {name: f}}\n", `p.yaml:1:35: workload.tool: missing parameters`},
		{"workload: {name: tool-call, tool: {name: f, parameters: {type: objet}}}\n", `p.yaml:1:57: workload.tool.parameters: parameters are not a valid JSON schema`},
		{"workload: {name: chat, tool: {name: f}}\n", `p.yaml:1:24: workload.tool: tool applies only to workload tool-call`},
		{"workload: {name: json, answer: {name: r}}\n", `p.yaml:1:32: workload.answer: missing parameters`},
		{"workload: {name: chat, answer: {name: r}}\n", `p.yaml:1:24: workload.answer: answer applies only to workload json`},
		{"workload: {name: chat, follow_ups: [a]}\n", `p.yaml:1:24: workload.follow_ups: follow_ups applies only to workload multi-turn`},
		{"workload: {name: multi-turn, follow_ups: a}\n", `p.yaml:1:42: workload.follow_ups: expected a list of strings`},
		// One workload per race: a provider's own is refused, pointing at params.
		{"workload: tool-call\nproviders:\n  - {name: a, base_url: http://x.test/v1, model: m, workload: json}\n",
			`p.yaml:3:53: providers[0].workload: a race has one workload, the same for every provider (set workload: at the top level, or --workload; ` +
				`a provider's params adjust its request, such as params: {tool_choice: auto} or params: {response_format: {type: json_object}})`},
	} {
		_, _, err := Parse("p.yaml", []byte(tc.yaml), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q…", tc.yaml, err, tc.want)
		}
	}
}

// Params that would replace what the workload validates against are
// refused at the provider's entry; what only adjusts the request is not.
func TestCheckWorkloadParams(t *testing.T) {
	const file = `providers:
  - {name: a, base_url: http://x.test/v1, model: m, params: {tools: [], response_format: {type: json_schema, json_schema: {name: x, schema: {}}}}}
  - {name: b, base_url: http://x.test/v1, model: m, params: {tool_choice: auto, response_format: {type: json_object}}}
`
	cfg, _, err := Parse("p.yaml", []byte(file), nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		workload.ToolCall: "p.yaml:2:5: providers[0].params.tools: it would replace the function the tool-call race validates against (give it as workload.tool; tool_choice may stay in params)",
		workload.JSON:     "p.yaml:2:5: providers[0].params.response_format: it would replace the schema the json race validates against (give it as workload.answer; {type: json_object} may stay in params)",
		workload.Chat:     "",
	} {
		cfg.Workload, _ = workload.Named(name)
		err := cfg.CheckWorkloadParams()
		if got := fmt.Sprint(err); want == "" && err != nil || want != "" && got != want {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
