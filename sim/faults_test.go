package sim

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestStatusFaults(t *testing.T) {
	s := startServer(t, Options{})
	for _, code := range []int{401, 403, 404, 429, 500, 503} {
		model := "sim:fault=" + strconv.Itoa(code)
		resp, _ := post(t, context.Background(), s, chatBody(model, nil))
		e := readError(t, resp)
		want := statusErrors[strconv.Itoa(code)]
		if resp.StatusCode != code || e.Message != want.Message || e.Type != want.Type || !strings.Contains(e.Message, "simulated") {
			t.Errorf("%s: %d %+v", model, resp.StatusCode, e)
		}
		if ra := resp.Header.Get("Retry-After"); ra != "" {
			t.Errorf("%s: Retry-After %q without retry_after", model, ra)
		}
	}
	resp, _ := post(t, context.Background(), s, chatBody("sim:fault=429,retry_after=7", nil))
	if e := readError(t, resp); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || e.Code != "rate_limit_exceeded" {
		t.Errorf("429 with retry_after: %d Retry-After %q %+v", resp.StatusCode, resp.Header.Get("Retry-After"), e)
	}
}

func TestHTMLFault(t *testing.T) {
	s := startServer(t, Options{})
	resp, _ := post(t, context.Background(), s, chatBody("sim:fault=html", nil))
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadGateway || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(body), "<h1>502 Bad Gateway</h1>") {
		t.Errorf("%d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestEchoFaultLeaksEveryHeader(t *testing.T) {
	s := startServer(t, Options{})
	const key = "sk-test-0123456789abcdef"
	resp, _ := post(t, context.Background(), s, chatBody("sim:fault=echo", nil), "Authorization", "Bearer "+key, "X-Custom", "yes")
	e := readError(t, resp)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(e.Message, "Authorization: Bearer "+key) || !strings.Contains(e.Message, "X-Custom: yes") {
		t.Errorf("%d %+v", resp.StatusCode, e)
	}
}

func TestErrorInsideStream(t *testing.T) {
	s := startServer(t, Options{})
	lines := streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=10,fault=error,after=3", nil))
	evs := events(t, lines)
	if content, _ := joined(evs); content != text(0, 3) {
		t.Errorf("text before the error %q", content)
	}
	last := evs[len(evs)-1].chunk
	if last.Error == nil || last.Error.Type != "server_error" || last.Error.Code != float64(500) || !strings.HasPrefix(lines[len(lines)-1].text, `data: {"error":`) {
		t.Errorf("last line %q, want a llama-server error event", lines[len(lines)-1].text)
	}
}

func TestGroqEventError(t *testing.T) {
	s := startServer(t, Options{})
	lines := streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=10,fault=event-error,after=2", nil))
	if n := len(textEvents(events(t, lines))); n != 2 {
		t.Errorf("%d text events before the error, want 2", n)
	}
	if len(lines) < 2 || lines[len(lines)-2].text != "event: error" {
		t.Fatalf("no `event: error` line: %v", lines)
	}
	var e struct{ Error wireError }
	payload, _ := dataPayload(lines[len(lines)-1].text)
	if err := json.Unmarshal([]byte(payload), &e); err != nil || e.Error.Code != "tool_use_failed" {
		t.Errorf("error event %q: %v", payload, err)
	}
}

func TestCloseFault(t *testing.T) {
	s := startServer(t, Options{})
	resp, sent := post(t, context.Background(), s, chatBody("sim:ttft=0s,tps=1000,tokens=10,fault=close,after=2", nil))
	lines, err := readLines(resp, sent)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("read error %v, want an unexpected EOF", err)
	}
	if n := len(textEvents(events(t, lines))); n != 2 {
		t.Errorf("%d text events before the close, want 2", n)
	}
}

// readUntil reads lines until one satisfies done; the stream stays open.
func readUntil(t *testing.T, r *bufio.Reader, done func(string) bool) {
	t.Helper()
	for {
		s, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended early: %v", err)
		}
		if done(strings.TrimRight(s, "\n")) {
			return
		}
	}
}

// expectSilence fails if r delivers anything within d, then cancels the
// request and checks that the server let go of it.
func expectSilence(t *testing.T, s *Server, r *bufio.Reader, cancel context.CancelFunc, d time.Duration) {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		for {
			line, err := r.ReadString('\n')
			if strings.TrimSpace(line) != "" || err != nil {
				got <- line
				return
			}
		}
	}()
	select {
	case line := <-got:
		t.Errorf("got %q while the stream should be silent", line)
		cancel()
	case <-time.After(d):
		cancel()
		<-got
	}
	eventually(t, "the handler to end after the client left", func() bool { return metrics(t, s)["requests_processing"] == 0 })
}

func TestStallHoldsUntilClientLeaves(t *testing.T) {
	s := startServer(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, _ := post(t, ctx, s, chatBody("sim:ttft=0s,tps=1000,tokens=10,fault=stall,after=2", nil))
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	readUntil(t, r, func(l string) bool { return strings.Contains(l, `"content":"`+word(1)+`"`) })
	expectSilence(t, s, r, cancel, 300*time.Millisecond)
}

func TestNobodyFault(t *testing.T) {
	s := startServer(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, _ := post(t, ctx, s, chatBody("sim:ttft=0s,fault=nobody,role=0", nil))
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Errorf("%d %q, want 200 with SSE headers", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	expectSilence(t, s, bufio.NewReader(resp.Body), cancel, 300*time.Millisecond)
}

func TestEndlessFault(t *testing.T) {
	s := startServer(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, _ := post(t, ctx, s, chatBody("sim:ttft=0s,tps=2000,tokens=3,fault=endless", request{"max_tokens": 3}))
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	seen := 0
	readUntil(t, r, func(l string) bool {
		if strings.Contains(l, "finish_reason\":\"") || l == "data: [DONE]" {
			t.Fatalf("endless stream ended: %q", l)
		}
		if strings.Contains(l, `"content":" `) {
			seen++
		}
		return seen == 50
	})
	cancel()
	eventually(t, "the endless handler to end", func() bool { return metrics(t, s)["requests_processing"] == 0 })
}

func TestBadJSONFault(t *testing.T) {
	s := startServer(t, Options{})
	lines := streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=5,fault=badjson,after=2,usage=finish", nil))
	var good []line
	bad := -1
	for _, l := range lines {
		if payload, ok := dataPayload(l.text); ok && payload != "[DONE]" && !json.Valid([]byte(payload)) {
			if bad >= 0 {
				t.Errorf("more than one malformed event")
			}
			bad = len(textEvents(events(t, good)))
			continue
		}
		good = append(good, l)
	}
	if bad != 2 {
		t.Errorf("malformed event after %d text events, want 2", bad)
	}
	evs := events(t, good)
	if content, _ := joined(evs); content != text(0, 5) || lastUsage(evs).CompletionTokens != 5 || good[len(good)-1].text != "data: [DONE]" {
		t.Errorf("stream after the bad event: %q usage %+v", content, lastUsage(evs))
	}
}

func TestBigChunkFault(t *testing.T) {
	s := startServer(t, Options{})
	lines := streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=3,fault=bigchunk,after=1,usage=finish", nil))
	evs := events(t, lines)
	texts := textEvents(evs)
	if len(texts) != 4 {
		t.Fatalf("%d text events, want 3 + the big one", len(texts))
	}
	big, _, _ := texts[1].text()
	if len(big) <= 1<<20 || strings.Count(big, " the") != bigChunkTokens {
		t.Errorf("big event of %d bytes", len(big))
	}
	if u := lastUsage(evs); u.CompletionTokens != 3+bigChunkTokens {
		t.Errorf("usage %+v, want the big event's tokens counted", u)
	}
}

// A tool-call or JSON answer meets its fault as a text answer does: the
// tool-call workload must see a call cut mid-stream, an error event or a
// malformed one, not a clean answer.
func TestStreamFaultsInToolAndJSONAnswers(t *testing.T) {
	s := startServer(t, Options{})
	schema := map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"}}
	tool := request{"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "get_weather", "parameters": schema}}}}
	jsonAnswer := request{"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "city", "schema": schema}}}

	resp, sent := post(t, context.Background(), s, chatBody("sim:ttft=0s,tps=1000,tool=split,fault=close,after=3", tool))
	lines, err := readLines(resp, sent)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("tool call with fault=close: read error %v, want an unexpected EOF", err)
	}
	if n := len(events(t, lines)); n == 0 || lines[len(lines)-1].text == "data: [DONE]" {
		t.Errorf("tool call with fault=close after 3 tokens: %d events, last line %q", n, lines[len(lines)-1].text)
	}

	lines = streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,fault=error,after=0", jsonAnswer))
	if last := lines[len(lines)-1].text; !strings.HasPrefix(last, `data: {"error":`) {
		t.Errorf("JSON answer with fault=error: last line %q, want a llama-server error event", last)
	}

	lines = streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tool=split,fault=badjson,after=1", tool))
	malformed := 0
	for _, l := range lines {
		if payload, ok := dataPayload(l.text); ok && payload != "[DONE]" && !json.Valid([]byte(payload)) {
			malformed++
		}
	}
	if malformed != 1 || lines[len(lines)-1].text != "data: [DONE]" {
		t.Errorf("tool call with fault=badjson: %d malformed events, last line %q; want 1 and the stream finished", malformed, lines[len(lines)-1].text)
	}
}
