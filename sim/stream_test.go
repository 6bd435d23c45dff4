package sim

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"tpsrace/tokens"
)

func TestStreamDefaultShape(t *testing.T) {
	s := startServer(t, Options{})
	const model = "sim:ttft=10ms,tps=1000,tokens=7"
	lines := streamLines(t, s, chatBody(model, nil))

	for _, l := range lines {
		if !strings.HasPrefix(l.text, "data: ") {
			t.Errorf("line %q: want every line to be `data: ...`", l.text)
		}
	}
	if last := lines[len(lines)-1].text; last != "data: [DONE]" {
		t.Errorf("last line %q, want data: [DONE]", last)
	}
	evs := events(t, lines)
	first := evs[0].chunk
	if d := first.Choices[0].Delta; d.Role != "assistant" || d.Content == nil || *d.Content != "" {
		t.Errorf("first chunk %+v, want the role-only chunk", first)
	}
	if first.Object != "chat.completion.chunk" || first.Model != model || !strings.HasPrefix(first.ID, "chatcmpl-") {
		t.Errorf("first chunk header %+v", first)
	}
	texts := textEvents(evs)
	if len(texts) != 7 {
		t.Fatalf("%d text events, want 7", len(texts))
	}
	for i, e := range texts {
		if c, _, _ := e.text(); c != word(i) || e.chunk.ID != first.ID {
			t.Errorf("event %d: %q id %s, want %q", i, c, e.chunk.ID, word(i))
		}
	}
	fin := evs[len(evs)-1].chunk
	if len(fin.Choices) != 1 || fin.Choices[0].FinishReason == nil || *fin.Choices[0].FinishReason != "stop" {
		t.Errorf("last chunk %+v, want finish_reason stop", fin)
	}
	if lastUsage(evs) != nil {
		t.Error("usage sent though the request did not ask for include_usage")
	}
}

// Each event leaves at its offset from receipt, so it arrives no earlier
// than that after the request was sent (the upper bound is loose: the test
// machine may be busy; exactness is checked on the offsets themselves).
func TestStreamFollowsSchedule(t *testing.T) {
	s := startServer(t, Options{})
	const model = "sim:ttft=100ms,tps=50,tokens=9,chunk=2"
	offsets := mustParse(t, model).EventOffsets(0)
	texts := textEvents(events(t, streamLines(t, s, chatBody(model, nil))))
	if len(texts) != len(offsets) {
		t.Fatalf("%d text events, want %d", len(texts), len(offsets))
	}
	for i, e := range texts {
		if e.at < offsets[i] || e.at > offsets[i]+2*time.Second {
			t.Errorf("event %d arrived at %v, scheduled at %v", i, e.at, offsets[i])
		}
	}
}

func TestUsageModes(t *testing.T) {
	s := startServer(t, Options{})
	prompt := []any{
		map[string]any{"role": "system", "content": "You are terse."},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Explain caches."}}},
	}
	promptTokens := tokens.Count("You are terse.Explain caches.")
	const n = 5
	for _, tc := range []struct {
		usage        string
		includeUsage bool
		where        string // "trailing", "finish", "every", "none"
	}{
		{"final", true, "trailing"},
		{"final", false, "none"},
		{"finish", false, "finish"},
		{"xgroq", false, "finish"},
		{"cumulative", false, "every"},
		{"none", true, "none"},
	} {
		body := chatBody("sim:ttft=0s,tps=1000,tokens=5,usage="+tc.usage, request{"messages": prompt})
		if tc.includeUsage {
			body["stream_options"] = map[string]any{"include_usage": true}
		}
		evs := events(t, streamLines(t, s, body))
		name := tc.usage
		last := evs[len(evs)-1].chunk
		switch tc.where {
		case "none":
			if lastUsage(evs) != nil {
				t.Errorf("%s: usage sent", name)
			}
			continue
		case "trailing":
			if len(last.Choices) != 0 || last.Usage == nil {
				t.Errorf(`%s: last chunk %+v, want "choices":[] with usage`, name, last)
			}
			if evs[len(evs)-2].chunk.Usage != nil {
				t.Errorf("%s: usage on the finish chunk too", name)
			}
		case "finish":
			if last.Choices[0].FinishReason == nil || last.Usage == nil {
				t.Errorf("%s: finish chunk %+v, want usage on it", name, last)
			}
			for _, e := range evs[:len(evs)-1] {
				if e.chunk.Usage != nil {
					t.Errorf("%s: usage before the finish chunk", name)
				}
			}
		case "every":
			for i, e := range evs {
				want := min(i, n) // the role chunk has 0, then one token per event
				if e.chunk.Usage == nil || e.chunk.Usage.CompletionTokens != want {
					t.Errorf("%s: chunk %d usage %+v, want %d tokens so far", name, i, e.chunk.Usage, want)
				}
			}
		}
		if tc.usage == "xgroq" && (last.XGroq == nil || *last.XGroq.Usage != *last.Usage) {
			t.Errorf("xgroq: x_groq %+v, want the same usage as the top level %+v", last.XGroq, last.Usage)
		}
		want := wireUsage{PromptTokens: promptTokens, CompletionTokens: n, TotalTokens: promptTokens + n}
		if u := lastUsage(evs); *u != want {
			t.Errorf("%s: usage %+v, want %+v", name, *u, want)
		}
	}
}

func TestUsageCountsReasoning(t *testing.T) {
	s := startServer(t, Options{})
	const model = "sim:ttft=0s,tps=1000,tokens=4,reasoning=3,chunk=2,usage=finish"
	evs := events(t, streamLines(t, s, chatBody(model, nil)))
	content, reasoning := joined(evs)
	if content != text(3, 7) || reasoning != text(0, 3) {
		t.Errorf("content %q reasoning %q", content, reasoning)
	}
	// Event 1 carries the last reasoning token and the first answer token.
	if c, r, _ := textEvents(evs)[1].text(); c != word(3) || r != word(2) {
		t.Errorf("straddling event: content %q reasoning %q", c, r)
	}
	u := lastUsage(evs)
	p := u.PromptTokens
	if u.CompletionTokens != 7 || u.TotalTokens != p+7 || u.Details == nil || u.Details.ReasoningTokens != 3 {
		t.Errorf("usage %+v", u)
	}
	if got := tokens.Count(content) + tokens.Count(reasoning); got != u.CompletionTokens {
		t.Errorf("o200k count of the text %d, usage %d", got, u.CompletionTokens)
	}

	evs = events(t, streamLines(t, s, chatBody(model+",excl_reasoning=1", nil)))
	if u := lastUsage(evs); u.CompletionTokens != 4 || u.TotalTokens != u.PromptTokens+7 || u.Details.ReasoningTokens != 3 {
		t.Errorf("excl_reasoning usage %+v, want 4 completion tokens and a total that keeps the 3 reasoning", u)
	}
}

func TestReasoningFields(t *testing.T) {
	s := startServer(t, Options{})
	base := "sim:ttft=0s,tps=1000,tokens=2,reasoning=2"
	evs := events(t, streamLines(t, s, chatBody(base+",rfield=reasoning", nil)))
	if d := textEvents(evs)[0].chunk.Choices[0].Delta; d.Reasoning != word(0) || d.ReasoningContent != "" {
		t.Errorf("rfield=reasoning: delta %+v", d)
	}
	evs = events(t, streamLines(t, s, chatBody(base+",rfield=think", nil)))
	content, reasoning := joined(evs)
	if want := "<think>" + text(0, 2) + "</think>" + text(2, 4); content != want || reasoning != "" {
		t.Errorf("rfield=think: content %q, want %q", content, want)
	}
	// Cut inside the reasoning, the tag never closes, as with a real model.
	evs = events(t, streamLines(t, s, chatBody(base+",rfield=think", request{"max_tokens": 1})))
	if content, _ := joined(evs); content != "<think>"+word(0) {
		t.Errorf("rfield=think cut at 1: content %q", content)
	}
	// Hidden: no event carries the reasoning, usage counts it, and the
	// answer's first event comes when the thinking's tokens were due.
	evs = events(t, streamLines(t, s, chatBody("sim:ttft=0s,tps=100,tokens=2,reasoning=10,rfield=hidden,usage=finish", nil)))
	answer := textEvents(evs)
	if content, reasoning := joined(evs); content != text(10, 12) || reasoning != "" || len(answer) != 2 {
		t.Errorf("rfield=hidden: %d events, content %q, reasoning %q", len(answer), content, reasoning)
	}
	if u := lastUsage(evs); u.CompletionTokens != 12 || u.Details == nil || u.Details.ReasoningTokens != 10 {
		t.Errorf("rfield=hidden: usage %+v, want 12 completion tokens, 10 of them reasoning", u)
	}
	if at := answer[0].at; at < 90*time.Millisecond {
		t.Errorf("rfield=hidden: first answer event at %v, want the 10 thinking tokens' 100ms", at)
	}
}

func TestMaxTokens(t *testing.T) {
	s := startServer(t, Options{})
	for _, tc := range []struct {
		extra request
		want  int
	}{
		{request{"max_tokens": 3}, 3},
		{request{"max_completion_tokens": 2, "max_tokens": 4}, 2},
		{request{"max_tokens": 50}, 5},
	} {
		tc.extra["stream_options"] = map[string]any{"include_usage": true}
		evs := events(t, streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=5", tc.extra)))
		finish := "stop"
		if tc.want < 5 {
			finish = "length"
		}
		if got := len(textEvents(evs)); got != tc.want || lastUsage(evs).CompletionTokens != tc.want {
			t.Errorf("%v: %d events, usage %+v, want %d", tc.extra, got, lastUsage(evs), tc.want)
		}
		if fin := evs[len(evs)-2].chunk.Choices[0].FinishReason; fin == nil || *fin != finish {
			t.Errorf("%v: finish_reason %v, want %s", tc.extra, fin, finish)
		}
	}
}

func TestWireVariants(t *testing.T) {
	s := startServer(t, Options{})
	lines := streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=2,nospace=1", nil))
	for _, l := range lines {
		if !strings.HasPrefix(l.text, "data:{") && l.text != "data:[DONE]" {
			t.Errorf("nospace: line %q", l.text)
		}
	}

	lines = streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=2,done=0", nil))
	if strings.Contains(lines[len(lines)-1].text, "[DONE]") {
		t.Error("done=0 still sent [DONE]")
	}

	evs := events(t, streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=2,role=0", nil)))
	if c, _, ok := evs[0].text(); !ok || c != word(0) || evs[0].chunk.Choices[0].Delta.Role != "" {
		t.Errorf("role=0: first chunk %+v, want the first word", evs[0].chunk)
	}

	evs = events(t, streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=5,chunk=2", nil)))
	var sizes []int
	for _, e := range textEvents(evs) {
		c, _, _ := e.text()
		sizes = append(sizes, tokens.Count(c))
	}
	if len(sizes) != 3 || sizes[0] != 2 || sizes[1] != 2 || sizes[2] != 1 {
		t.Errorf("chunk=2 of 5 tokens: events of %v tokens", sizes)
	}
}

func TestKeepalive(t *testing.T) {
	s := startServer(t, Options{})
	// Comments are due at 50, 100 ... 250 ms of silence before the first event at 300 ms.
	lines := streamLines(t, s, chatBody("sim:ttft=300ms,tps=1000,tokens=2,keepalive=50ms", nil))
	before, total := -1, 0
	for _, l := range lines {
		if l.text == ": keep-alive" {
			total++
		} else if _, _, ok := textEventOf(t, l); ok && before < 0 {
			before = total
		}
	}
	if before != 5 || total != 5 {
		t.Errorf("%d keep-alives before the first text event, %d in all; want 5 and 5", before, total)
	}
}

// textEventOf parses one line, if it is a data event.
func textEventOf(t *testing.T, l line) (string, string, bool) {
	evs := events(t, []line{l})
	if len(evs) == 0 {
		return "", "", false
	}
	return evs[0].text()
}

func TestTimings(t *testing.T) {
	s := startServer(t, Options{})
	evs := events(t, streamLines(t, s, chatBody("sim:ttft=50ms,tps=200,tokens=10,timings=1", nil)))
	tm := evs[len(evs)-1].chunk.Timings
	if tm == nil {
		t.Fatal("no timings on the last chunk")
	}
	promptTokens := tokens.Count("Say something.")
	if tm.PredictedN != 10 || tm.PromptN != promptTokens {
		t.Errorf("timings %+v, want predicted_n 10 and prompt_n %d", tm, promptTokens)
	}
	if want := float64(tm.PredictedN-1) / tm.PredictedMS * 1000; math.Abs(tm.PredictedPerSecond-want) > 1e-9*want {
		t.Errorf("predicted_per_second %g, want (n−1)/predicted_ms×1000 = %g", tm.PredictedPerSecond, want)
	}
	// What was really sent is no earlier than scheduled: the first token at 50 ms, the last 9 gaps of 5 ms
	// later. The gaps alone may be shorter: a first token sent late on a busy machine is followed by the rest
	// on their absolute schedule.
	if tm.PromptMS < 50 || tm.PromptMS+tm.PredictedMS < 50+9*5-1 {
		t.Errorf("prompt_ms %g predicted_ms %g", tm.PromptMS, tm.PredictedMS)
	}
	if want := float64(tm.PromptN) / tm.PromptMS * 1000; math.Abs(tm.PromptPerSecond-want) > 1e-9*want {
		t.Errorf("prompt_per_second %g, want %g", tm.PromptPerSecond, want)
	}

	// With include_usage the trailing usage chunk is the last, and carries the timings.
	evs = events(t, streamLines(t, s, chatBody("sim:ttft=0s,tps=1000,tokens=3,timings=1", request{"stream_options": map[string]any{"include_usage": true}})))
	if last := evs[len(evs)-1].chunk; last.Timings == nil || last.Usage == nil || evs[len(evs)-2].chunk.Timings != nil {
		t.Errorf("timings not (only) on the trailing usage chunk: %+v", last)
	}
}

// Prefill is exact: the first token comes the prompt's prefill after the
// jittered ttft, llama-server's timings report that prefill as its prompt
// phase (prompt_per_second = prefill=), and a repeated prompt of
// prefixcache= tokens or more is served from the cache: cache_n and
// cached_tokens, no prefill.
func TestPrefillAndPrefixCache(t *testing.T) {
	const model = "sim:ttft=20ms,tps=1000,tokens=3,jitter=0.5,seed=9,timings=1,prefill=100000,prefixcache=1000"
	s := startServer(t, Options{})
	sched, err := ParseSchedule(model)
	if err != nil {
		t.Fatal(err)
	}
	base := sched.EventOffsets(0)[0] // ttft × its jitter factor: the first event without a prompt
	long := "Say something." + strings.Repeat(" the", 3000)
	promptTokens := tokens.Count(long)
	body := chatBody(model, request{"messages": []any{map[string]any{"role": "user", "content": long}},
		"stream_options": map[string]any{"include_usage": true}})
	prefill := time.Duration(math.Round(float64(promptTokens) / 100000 * float64(time.Second)))

	cold := events(t, streamLines(t, s, body))
	tm, u := cold[len(cold)-1].chunk.Timings, lastUsage(cold)
	if tm == nil || tm.PromptN != promptTokens || tm.CacheN != 0 || tm.PromptPerSecond != 100000 ||
		tm.PromptMS != float64(prefill)/float64(time.Millisecond) || u.PromptDetails != nil {
		t.Fatalf("cold: timings %+v usage %+v, want prompt_n %d, cache_n 0, prompt_ms %v, prompt_per_second 100000, nothing cached",
			tm, u, promptTokens, prefill)
	}
	if first := textEvents(cold)[0].at; first < base+prefill {
		t.Errorf("cold: first token at %v, before ttft %v + prefill %v", first, base, prefill)
	}

	warm := events(t, streamLines(t, s, body))
	tm, u = warm[len(warm)-1].chunk.Timings, lastUsage(warm)
	if tm == nil || tm.CacheN != promptTokens || tm.PromptN != 0 || tm.PromptMS != 0 || u.PromptDetails == nil || u.PromptDetails.CachedTokens != promptTokens {
		t.Errorf("warm: timings %+v usage %+v, want the whole prompt (%d) cached and no prefill", tm, u, promptTokens)
	}

	// A prompt shorter than prefixcache= is never cached.
	short := chatBody(model, nil)
	streamLines(t, s, short)
	again := events(t, streamLines(t, s, short))
	if tm := again[len(again)-1].chunk.Timings; tm == nil || tm.CacheN != 0 || tm.PromptN != tokens.Count("Say something.") {
		t.Errorf("a short prompt again: %+v, want nothing cached", tm)
	}
}

func TestNonStreamingCompletion(t *testing.T) {
	s := startServer(t, Options{})
	const model = "sim:ttft=50ms,tps=100,tokens=5,reasoning=2,timings=1"
	resp, sent := post(t, context.Background(), s, chatBody(model, request{"stream": false}))
	defer resp.Body.Close()
	var got struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Role, Content    string
				ReasoningContent string `json:"reasoning_content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage   wireUsage `json:"usage"`
		Timings *struct {
			PredictedN int `json:"predicted_n"`
		} `json:"timings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	offsets := mustParse(t, model).EventOffsets(0)
	if elapsed := time.Since(sent); elapsed < offsets[len(offsets)-1] {
		t.Errorf("answered after %v, before the last token was due (%v)", elapsed, offsets[len(offsets)-1])
	}
	m := got.Choices[0].Message
	if resp.Header.Get("Content-Type") != "application/json" || got.Object != "chat.completion" || m.Role != "assistant" ||
		m.Content != text(2, 7) || m.ReasoningContent != text(0, 2) || got.Choices[0].FinishReason != "stop" {
		t.Errorf("completion %+v", got)
	}
	if got.Usage.CompletionTokens != 7 || got.Usage.Details.ReasoningTokens != 2 || got.Timings == nil || got.Timings.PredictedN != 7 {
		t.Errorf("usage %+v timings %+v", got.Usage, got.Timings)
	}
}

func TestRequestErrors(t *testing.T) {
	s := startServer(t, Options{})
	for _, tc := range []struct {
		body       request
		status     int
		typ, code  string
		msgContain string
	}{
		{chatBody("gpt-4o", nil), 404, "invalid_request_error", "model_not_found", `"gpt-4o" does not exist`},
		{chatBody("sim:tps=0", nil), 400, "invalid_request_error", "invalid_model", "want a number > 0"},
		{chatBody("sim:", request{"max_tokens": 0}), 400, "invalid_request_error", "", "max_tokens must be at least 1"},
		{chatBody("sim:fault=stall", request{"stream": false}), 400, "invalid_request_error", "", `needs "stream": true`},
		{chatBody("sim:", request{"messages": "hi"}), 400, "invalid_request_error", "", "not valid JSON"},
	} {
		resp, _ := post(t, context.Background(), s, tc.body)
		e := readError(t, resp)
		if resp.StatusCode != tc.status || e.Type != tc.typ || (tc.code != "" && e.Code != tc.code) || !strings.Contains(e.Message, tc.msgContain) {
			t.Errorf("%v: %d %+v", tc.body, resp.StatusCode, e)
		}
	}
}

type wireError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

// readError decodes an OpenAI-style error body.
func readError(t *testing.T, resp *http.Response) wireError {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("error Content-Type %q", ct)
	}
	raw, _ := io.ReadAll(resp.Body)
	var body struct{ Error wireError }
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("error body %q: %v", raw, err)
	}
	return body.Error
}
