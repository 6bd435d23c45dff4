package sim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// Every test's server must be gone, with all its goroutines, at the end.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// client keeps no idle connections, so nothing outlives a test.
var client = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

func startServer(t testing.TB, opts Options) *Server {
	t.Helper()
	s, err := Start("127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// request is a chat completion request body.
type request map[string]any

func chatBody(model string, extra request) request {
	body := request{"model": model, "stream": true, "messages": []any{map[string]any{"role": "user", "content": "Say something."}}}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

// post sends body to /v1/chat/completions, returning the response (headers
// read) and when it was sent: every offset the server keeps starts later.
func post(t testing.TB, ctx context.Context, s *Server, body request, header ...string) (*http.Response, time.Time) {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	sent := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp, sent
}

func get(t testing.TB, s *Server, path string) (int, string) {
	t.Helper()
	resp, err := client.Get(strings.TrimSuffix(s.URL(), "/v1") + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// line is one non-empty line of a response body and when it was read.
type line struct {
	at   time.Duration // since the request was sent
	text string
}

// readLines reads the body line by line until it ends; err is nil at a
// clean EOF. A plain reader: the real SSE parser lives elsewhere.
func readLines(resp *http.Response, sent time.Time) ([]line, error) {
	defer resp.Body.Close()
	var lines []line
	r := bufio.NewReader(resp.Body)
	for {
		s, err := r.ReadString('\n')
		if s = strings.TrimRight(s, "\r\n"); s != "" {
			lines = append(lines, line{time.Since(sent), s})
		}
		if errors.Is(err, io.EOF) && s == "" {
			return lines, nil
		}
		if err != nil {
			return lines, err
		}
	}
}

// streamLines runs one streamed request to its end.
func streamLines(t testing.TB, s *Server, body request) []line {
	t.Helper()
	resp, sent := post(t, context.Background(), s, body)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	lines, err := readLines(resp, sent)
	if err != nil {
		t.Fatalf("reading the stream: %v", err)
	}
	return lines
}

// event is one parsed "data:" JSON event.
type event struct {
	at    time.Duration
	chunk wireChunk
}

// wireChunk mirrors what the server sends, read back independently.
type wireChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent string  `json:"reasoning_content"`
			Reasoning        string  `json:"reasoning"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage   *wireUsage                  `json:"usage"`
	XGroq   *struct{ Usage *wireUsage } `json:"x_groq"`
	Timings *struct {
		CacheN             int     `json:"cache_n"`
		PromptN            int     `json:"prompt_n"`
		PromptMS           float64 `json:"prompt_ms"`
		PromptPerSecond    float64 `json:"prompt_per_second"`
		PredictedN         int     `json:"predicted_n"`
		PredictedMS        float64 `json:"predicted_ms"`
		PredictedPerSecond float64 `json:"predicted_per_second"`
	} `json:"timings"`
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	PromptDetails    *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	Details *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// text is the event's answer text, reasoning and whether it carried either.
func (e event) text() (content, reasoning string, ok bool) {
	if len(e.chunk.Choices) == 0 {
		return "", "", false
	}
	d := e.chunk.Choices[0].Delta
	if d.Content != nil {
		content = *d.Content
	}
	reasoning = d.ReasoningContent + d.Reasoning
	return content, reasoning, content != "" || reasoning != ""
}

// events parses every "data:" line but [DONE]; a line that is not JSON fails the test.
func events(t testing.TB, lines []line) []event {
	t.Helper()
	var evs []event
	for _, l := range lines {
		payload, ok := dataPayload(l.text)
		if !ok || payload == "[DONE]" {
			continue
		}
		var c wireChunk
		if err := json.Unmarshal([]byte(payload), &c); err != nil {
			t.Fatalf("data line is not JSON (%v): %.200s", err, l.text)
		}
		evs = append(evs, event{l.at, c})
	}
	return evs
}

func dataPayload(s string) (string, bool) {
	payload, ok := strings.CutPrefix(s, "data:")
	return strings.TrimPrefix(payload, " "), ok
}

// textEvents are the events that carried text, in order.
func textEvents(evs []event) []event {
	var out []event
	for _, e := range evs {
		if _, _, ok := e.text(); ok {
			out = append(out, e)
		}
	}
	return out
}

// joined is all answer and reasoning text of evs.
func joined(evs []event) (content, reasoning string) {
	var c, r strings.Builder
	for _, e := range evs {
		ec, er, _ := e.text()
		c.WriteString(ec)
		r.WriteString(er)
	}
	return c.String(), r.String()
}

// lastUsage is the last usage reported in evs, nil if none.
func lastUsage(evs []event) *wireUsage {
	var u *wireUsage
	for _, e := range evs {
		if e.chunk.Usage != nil {
			u = e.chunk.Usage
		}
	}
	return u
}

var metricLine = regexp.MustCompile(`(?m)^llamacpp:(\w+) (\S+)$`)

// metrics reads /metrics into name -> value.
func metrics(t testing.TB, s *Server) map[string]float64 {
	t.Helper()
	status, body := get(t, s, "/metrics")
	if status != http.StatusOK {
		t.Fatalf("/metrics: status %d", status)
	}
	m := map[string]float64{}
	for _, match := range metricLine.FindAllStringSubmatch(body, -1) {
		v, err := strconv.ParseFloat(match[2], 64)
		if err != nil {
			t.Fatalf("/metrics %s: %v", match[1], err)
		}
		m[match[1]] = v
	}
	return m
}

// eventually polls cond for up to 5 s: generous, for a busy machine.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
