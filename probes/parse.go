package probes

// All stream parsing lives in this file: sseReader splits the wire framing
// into data payloads, and decodeChunk turns each payload into what it means,
// for every provider dialect in ../shared/fixtures/sse.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	jsoniter "github.com/json-iterator/go"
	"io"
	"strings"
	"sync"
)

// sseReader reads a response body as server-sent events and returns the
// data payloads one at a time. Comments (": OPENROUTER PROCESSING"), blank
// lines and the other SSE fields are skipped; an error event's payload says
// it is an error itself. A last line without a trailing newline still
// counts. data: [DONE] ends the stream (later lines are not read), and a
// body that is not SSE at all is rejected at its first line.
type sseReader struct {
	src     *bufio.Reader
	long    []byte // a line longer than src's buffer, gathered; kept for the next one
	done    bool   // saw data: [DONE]
	lines   int    // non-empty lines seen, for the "not SSE" check
	onBytes func() // called after every read that returned bytes (stall timer)
}

// sseBuffer is the read buffer of a stream: a line longer than this (a
// >1 MiB event) is gathered in sseReader.long instead, so a stream of short
// events keeps only this much.
const sseBuffer = 4 << 10

func newSSEReader(body io.Reader, onBytes func()) *sseReader {
	return &sseReader{src: bufio.NewReaderSize(body, sseBuffer), onBytes: onBytes}
}

var (
	dataField = []byte("data:")
	doneData  = []byte("[DONE]")
)

// next returns the next data payload, valid until the following call, or
// io.EOF at the end of the stream.
func (r *sseReader) next() ([]byte, error) {
	for !r.done {
		line, err := r.line()
		if err != nil && !errors.Is(err, io.EOF) { // a broken connection: its partial line means nothing
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 0 {
			r.lines++
		}
		switch {
		case len(line) == 0, line[0] == ':': // blank line or comment (keep-alive)
		case bytes.HasPrefix(line, dataField):
			payload := bytes.TrimSpace(line[len(dataField):])
			if bytes.Equal(payload, doneData) {
				r.done = true
				break
			}
			return payload, nil
		case isSSEField(line):
		default:
			if r.lines == 1 {
				return nil, &Failure{Kind: KindProtocol, Message: "response is not an event stream: " + snippet(line)}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, io.EOF
}

// line reads one line, gathering one longer than the buffer in r.long.
func (r *sseReader) line() ([]byte, error) {
	line, err := r.src.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], line...) // ReadSlice's result is overwritten by the next read
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.src.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		line = r.long
	}
	if len(line) > 0 && r.onBytes != nil {
		r.onBytes()
	}
	return line, err
}

// isSSEField reports whether line is one of the other SSE fields, which
// tpsrace ignores: an error event's payload says it is an error itself.
func isSSEField(line []byte) bool {
	name, _, _ := bytes.Cut(line, []byte(":"))
	switch string(name) {
	case "event", "id", "retry":
		return true
	}
	return false
}

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

// chunkJSON decodes chunks: the hot path of a stream, where json-iterator
// costs about half of encoding/json (BenchmarkMeasuringCost).
var chunkJSON = jsoniter.ConfigCompatibleWithStandardLibrary

// warmCodecs builds, by reflection, the JSON codec of a stream's chunks,
// which is otherwise built on first use: before the release, so that the
// first race's first events do not wait for it (the request is encoded
// before the release anyway, by newRequestBody). (The o200k
// vocabulary needs no such step: it loads in well under a millisecond at the
// first count, after that event's time is taken.)
var warmCodecs = sync.OnceFunc(func() {
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

// thinkSplitter moves inline <think>…</think> text at the start of an answer
// (DeepSeek-R1 distills, QwQ on some servers) into reasoning. Only a leading
// block counts, so an answer that merely mentions the tag is left alone. Tags
// may be split across events, so a possible tag prefix is held back; the
// result is the same however the text was cut (FuzzThinkSplit).
type thinkSplitter struct {
	state   thinkState
	pending string
}

type thinkState int

const (
	beforeAnswer thinkState = iota // only white space so far; a <think> may still open
	inThink                        // inside the leading think block
	afterThink                     // just closed: drop the newlines that follow the tag
	inAnswer                       // plain answer text from here on
)

const openThink, closeThink = "<think>", "</think>"

func (t *thinkSplitter) split(content string) (answer, reasoning string) {
	s := t.pending + content
	t.pending = ""
	for s != "" {
		switch t.state {
		case beforeAnswer:
			trimmed := strings.TrimLeft(s, " \t\r\n")
			answer += s[:len(s)-len(trimmed)] // white space before the tag is answer text either way
			s = trimmed
			switch {
			case s == "":
			case strings.HasPrefix(s, openThink):
				t.state, s = inThink, s[len(openThink):]
			case strings.HasPrefix(openThink, s):
				t.pending, s = s, ""
			default:
				t.state = inAnswer
			}
		case inThink:
			if i := strings.Index(s, closeThink); i >= 0 {
				reasoning += s[:i]
				t.state, s = afterThink, s[i+len(closeThink):]
				continue
			}
			keep := partialSuffix(s, closeThink)
			reasoning += s[:len(s)-keep]
			t.pending, s = s[len(s)-keep:], ""
		case afterThink:
			if s = strings.TrimLeft(s, "\r\n"); s != "" {
				t.state = inAnswer
			}
		case inAnswer:
			answer, s = answer+s, ""
		}
	}
	return answer, reasoning
}

// flush returns text held back at the end of the stream.
func (t *thinkSplitter) flush() (answer, reasoning string) {
	s := t.pending
	t.pending = ""
	if t.state == inThink {
		return "", s
	}
	return s, ""
}

// partialSuffix is the length of the longest suffix of s that starts tag.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
