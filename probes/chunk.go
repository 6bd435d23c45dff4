package probes

// What one event's data means: the full decoder, for every chunk shape of
// every provider dialect in ../shared/fixtures/sse. scan.go reads the common
// shapes without it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	jsoniter "github.com/json-iterator/go"

	"tpsrace/config"
	"tpsrace/tokens"
)

// chunk is the union of the streamed chunk shapes providers send.
type chunk struct {
	Model             firstText `json:"model"`
	SystemFingerprint firstText `json:"system_fingerprint"`
	Provider          firstText `json:"provider"` // OpenRouter: the upstream that served the route
	Choices           []struct {
		Index int `json:"index"`
		Delta struct {
			Content          content        `json:"content"`
			ReasoningContent jsonText       `json:"reasoning_content"`
			Reasoning        jsonText       `json:"reasoning"`
			Refusal          jsonText       `json:"refusal"`
			ToolCalls        []wireToolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *wireUsage `json:"usage"`
	XGroq *struct {
		Usage *wireUsage `json:"usage"`
	} `json:"x_groq"`
	Timings *struct {
		CacheN             int     `json:"cache_n"`
		PredictedN         int     `json:"predicted_n"`
		PredictedMS        float64 `json:"predicted_ms"`
		PredictedPerSecond float64 `json:"predicted_per_second"`
		PromptN            int     `json:"prompt_n"`
		PromptMS           float64 `json:"prompt_ms"`
		PromptPerSecond    float64 `json:"prompt_per_second"`
	} `json:"timings"`
	Error json.RawMessage `json:"error"`
}

// wireToolCall is one entry of delta.tool_calls: a call's opening (id,
// name) or a fragment of its arguments, or both at once.
type wireToolCall struct {
	Index    *int     `json:"index"`
	ID       jsonText `json:"id"`
	Function struct {
		Name      jsonText `json:"name"`
		Arguments argsText `json:"arguments"`
	} `json:"function"`
}

// argsText is function.arguments: a string of JSON text, as OpenAI sends
// it; a server that sends the object itself gets its JSON text.
type argsText string

func (t *argsText) UnmarshalJSON(raw []byte) error {
	if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[') {
		*t = argsText(raw)
		return nil
	}
	*t = argsText(text(raw))
	return nil
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	Details          *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	PromptDetails *struct {
		CachedTokens *int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens *int `json:"prompt_cache_hit_tokens"` // DeepSeek
}

// chunkJSON decodes the chunks the scanner leaves to the full decoder
// (usage, tool calls, content parts, errors): json-iterator costs about half
// of encoding/json (BenchmarkDecodeChunk/full).
var chunkJSON = jsoniter.ConfigCompatibleWithStandardLibrary

// Warm builds, by reflection, the JSON codecs a race needs, which are
// otherwise built on first use: the request's (newRequestBody) and that of
// a stream's chunks, about 2 ms together on a slow VM. Race.Run calls it
// before the release, so that the first race's first events do not wait
// for it. A command that will race calls it sooner, in a goroutine, so that
// another core builds them while it reads its providers; a second caller
// waits for the first. The o200k vocabulary's pages are read in too, on a
// goroutine of their own that nothing waits for (a request takes longer to
// answer than they take): counted cold, the first events of the process's
// first stream paid their page faults, and the reads after them came late,
// by 2 ms on a guest where a fault is dear.
func Warm() {
	warmVocabulary()
	warm()
}

var warmVocabulary = sync.OnceFunc(func() { go tokens.Warm() })

var warm = sync.OnceFunc(func() {
	newRequestBody(config.Provider{}, Request{Prompt: "x"})
	decodeChunk([]byte(`{"choices":[{"index":0,"delta":{"content":"x","reasoning_content":"y","reasoning":"z","refusal":"r",`+
		`"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}],`+
		`"usage":{"prompt_tokens":1,"completion_tokens_details":{"reasoning_tokens":1},"prompt_tokens_details":{"cached_tokens":1},"prompt_cache_hit_tokens":1},`+
		`"x_groq":{"usage":{}},"timings":{},"model":"m","system_fingerprint":"f","provider":"p"}`), &Served{})
})

// delta is what one payload means for choice 0.
type delta struct {
	Content, Reasoning string
	ToolCalls          []ToolDelta // At unset; those that carry nothing are left out
	FinishReason       string      // "" when the payload set none
	Usage              *Usage
	Timings            *ServerTimings
	Err                *Failure
}

// decodeChunk parses one data payload. Only choice 0 is recorded (tpsrace
// asks for one). Usage comes from top-level usage, else x_groq.usage: Groq
// sends both, identical, and they must not be added. The fields of served
// still empty take the payload's values (Served).
func decodeChunk(payload []byte, served *Served) (delta, error) {
	c := chunk{Model: firstText{&served.Model}, SystemFingerprint: firstText{&served.Fingerprint}, Provider: firstText{&served.Provider}}
	if err := chunkJSON.Unmarshal(payload, &c); err != nil {
		return delta{}, &Failure{Kind: KindProtocol, Message: "malformed event (not JSON): " + snippet(payload)}
	}
	var d delta
	if len(c.Error) > 0 && string(c.Error) != "null" {
		d.Err = decodeError(c.Error)
		return d, nil
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		dl := ch.Delta
		d.Content = dl.Content.text + string(dl.Refusal)
		d.Reasoning = dl.Content.reasoning + string(dl.ReasoningContent) + string(dl.Reasoning)
		for _, tc := range dl.ToolCalls {
			td := ToolDelta{Index: NoIndex, ID: string(tc.ID), Name: string(tc.Function.Name), Arguments: string(tc.Function.Arguments)}
			if tc.Index != nil {
				td.Index = *tc.Index
			}
			if td.ID != "" || td.Name != "" || td.Arguments != "" {
				d.ToolCalls = append(d.ToolCalls, td)
			}
		}
		if ch.FinishReason != nil {
			d.FinishReason = *ch.FinishReason
		}
	}
	u := c.Usage
	if u == nil && c.XGroq != nil {
		u = c.XGroq.Usage
	}
	if u != nil {
		d.Usage = u.normalise()
	}
	if t := c.Timings; t != nil {
		d.Timings = &ServerTimings{t.PredictedN, t.PredictedMS, t.PredictedPerSecond, t.PromptN, t.PromptMS, t.PromptPerSecond, t.CacheN}
	}
	return d, nil
}

// normalise folds reasoning into the output count. Some providers leave
// reasoning out of completion_tokens while total_tokens includes it; the
// difference is reasoning the client streamed and waited for.
func (u *wireUsage) normalise() *Usage {
	out := &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if u.Details != nil {
		out.ReasoningTokens = u.Details.ReasoningTokens
	}
	// DeepSeek sends both cache fields, equal; either alone counts.
	for _, cached := range []*int{u.PromptCacheHitTokens, u.cachedTokens()} {
		if cached != nil && (out.CachedPromptTokens == nil || *cached > *out.CachedPromptTokens) {
			out.CachedPromptTokens = cached
		}
	}
	if extra := u.TotalTokens - u.PromptTokens - u.CompletionTokens; u.TotalTokens > 0 && extra > 0 {
		out.CompletionTokens += extra
		out.ReasoningTokens = max(out.ReasoningTokens, extra)
	}
	return out
}

func (u *wireUsage) cachedTokens() *int {
	if u.PromptDetails == nil {
		return nil
	}
	return u.PromptDetails.CachedTokens
}

// jsonText is a JSON string's value; null, absent or a non-string reads as "".
// Decoding a plain string without escapes in place, the common case, keeps
// the parser cheap (see BenchmarkMeasuringCost).
type jsonText string

func (t *jsonText) UnmarshalJSON(raw []byte) error {
	*t = jsonText(text(raw))
	return nil
}

func text(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// firstText sets *dst to a string field's value unless it has one: every
// chunk of a stream repeats its model and fingerprint, and only the first
// is kept, so the others cost no copy.
type firstText struct{ dst *string }

func (f firstText) UnmarshalJSON(raw []byte) error {
	if *f.dst == "" {
		*f.dst = text(raw)
	}
	return nil
}

// content is delta.content: a string, or typed parts where
// {"type":"thinking"} carries reasoning (Mistral) and {"type":"text"} the answer.
type content struct{ text, reasoning string }

func (c *content) UnmarshalJSON(raw []byte) error {
	if len(raw) == 0 || raw[0] != '[' {
		c.text = text(raw)
		return nil
	}
	var parts []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking json.RawMessage `json:"thinking"` // string or [{type:text,text}]
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var answer, reasoning strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text":
			answer.WriteString(p.Text)
		case "thinking", "reasoning":
			reasoning.WriteString(p.Text + text(p.Thinking))
			var inner []struct {
				Text string `json:"text"`
			}
			if len(p.Thinking) > 0 && p.Thinking[0] == '[' && json.Unmarshal(p.Thinking, &inner) == nil {
				for _, t := range inner {
					reasoning.WriteString(t.Text)
				}
			}
		}
	}
	c.text, c.reasoning = answer.String(), reasoning.String()
	return nil
}

// decodeError reads an error the server sent inside the stream, in any of
// the shapes errorReason knows; a status_code beside it (Groq) is kept.
func decodeError(raw json.RawMessage) *Failure {
	f := &Failure{Kind: KindStream}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		f.Message = snippet(raw)
		return f
	}
	f.Message, f.Code = errorReason(v)
	if obj, ok := v.(map[string]any); ok {
		if status, ok := obj["status_code"].(float64); ok {
			f.Status = int(status)
		}
	}
	return f.withReason()
}

// snippet shortens text quoted in an error message.
func snippet(b []byte) string {
	const limit = 120
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return fmt.Sprintf("%q", s)
}
