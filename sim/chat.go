package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"tpsrace/tokens"
)

const maxRequestBody = 16 << 20

// chatRequest is the part of a chat completion request the simulator reads.
type chatRequest struct {
	Model               string        `json:"model"`
	Messages            []chatMessage `json:"messages"`
	MaxTokens           *int          `json:"max_tokens"`
	MaxCompletionTokens *int          `json:"max_completion_tokens"`
	Stream              bool          `json:"stream"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type chatMessage struct {
	Content json.RawMessage `json:"content"`
}

// text is the message's text: a string, or the text parts of an array.
func (m chatMessage) text() (string, error) {
	if len(m.Content) == 0 || string(m.Content) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		return "", errors.New("a message content must be a string or an array of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// readChatRequest parses the body, returning the request and its prompt text
// (every message content, concatenated).
func readChatRequest(w http.ResponseWriter, r *http.Request) (chatRequest, string, error) {
	var req chatRequest
	// Reading to EOF also lets net/http notice when the client goes away.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
	if err != nil {
		return req, "", fmt.Errorf("reading the request body: %v", err)
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return req, "", fmt.Errorf("the request body is not valid JSON: %v", err)
	}
	for _, limit := range []*int{req.MaxTokens, req.MaxCompletionTokens} {
		if limit != nil && *limit < 1 {
			return req, "", errors.New("max_tokens must be at least 1")
		}
	}
	var prompt strings.Builder
	for _, m := range req.Messages {
		t, err := m.text()
		if err != nil {
			return req, "", err
		}
		prompt.WriteString(t)
	}
	return req, prompt.String(), nil
}

// maxTokens is the request's cap on output tokens, 0 for none;
// max_completion_tokens wins over the older max_tokens.
func (req chatRequest) maxTokens() int {
	for _, limit := range []*int{req.MaxCompletionTokens, req.MaxTokens} {
		if limit != nil {
			return *limit
		}
	}
	return 0
}

func (h *handler) chat(w http.ResponseWriter, r *http.Request) {
	if h.loading() {
		writeRawJSON(w, http.StatusServiceUnavailable, loadingBody)
		return
	}
	req, prompt, err := readChatRequest(w, r)
	if err != nil {
		writeError(w, http.StatusBadRequest, apiError{Message: err.Error(), Type: "invalid_request_error"})
		return
	}
	if !strings.HasPrefix(req.Model, Prefix) {
		writeError(w, http.StatusNotFound, apiError{
			Message: fmt.Sprintf("The model %q does not exist: this simulator serves %q... models only", req.Model, Prefix),
			Type:    "invalid_request_error", Code: "model_not_found",
		})
		return
	}
	s, err := ParseSchedule(req.Model)
	if err != nil {
		writeError(w, http.StatusBadRequest, apiError{Message: err.Error(), Type: "invalid_request_error", Code: "invalid_model"})
		return
	}
	if s.statusFault() {
		writeStatusFault(w, r, s)
		return
	}
	if s.Fault != "" && !req.Stream {
		writeError(w, http.StatusBadRequest, apiError{Message: fmt.Sprintf(`fault=%s needs "stream": true`, s.Fault), Type: "invalid_request_error"})
		return
	}
	g := h.begin(r.Context(), req, s, tokens.Count(prompt))
	if g == nil {
		return // the client left, or the server closed, while queued for a slot
	}
	defer g.end()
	if req.Stream {
		g.stream(r.Context(), w)
	} else {
		g.respond(r.Context(), w)
	}
}

// statusErrors are the status faults' bodies, worded like OpenAI's.
var statusErrors = map[string]apiError{
	"401": {Message: "Incorrect API key provided (simulated).", Type: "invalid_request_error", Code: "invalid_api_key"},
	"403": {Message: "You are not allowed to use this model (simulated).", Type: "invalid_request_error", Code: "permission_denied"},
	"404": {Message: "The model does not exist or you do not have access to it (simulated).", Type: "invalid_request_error", Code: "model_not_found"},
	"429": {Message: "Rate limit reached for requests (simulated).", Type: "requests", Code: "rate_limit_exceeded"},
	"500": {Message: "The server had an error while processing your request (simulated).", Type: "server_error"},
	"503": {Message: "The server is overloaded or not ready yet (simulated).", Type: "server_error", Code: "service_unavailable"},
}

// badGatewayPage is what a proxy in front of a dead upstream answers.
const badGatewayPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx (simulated)</center>\r\n</body>\r\n</html>\r\n"

func writeStatusFault(w http.ResponseWriter, r *http.Request, s Schedule) {
	switch s.Fault {
	case FaultHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, badGatewayPage)
	case FaultEcho:
		// A hostile server: whatever the client sent comes back in the error,
		// for tests that the client never shows it.
		var sent []string
		for _, name := range slices.Sorted(maps.Keys(r.Header)) {
			sent = append(sent, name+": "+strings.Join(r.Header[name], ", "))
		}
		writeError(w, http.StatusUnauthorized, apiError{
			Message: "Simulated hostile server. You sent: " + strings.Join(sent, "; "),
			Type:    "invalid_request_error", Code: "invalid_api_key",
		})
	default:
		if s.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(s.RetryAfter))
		}
		status, _ := strconv.Atoi(s.Fault)
		writeError(w, status, statusErrors[s.Fault])
	}
}

// generation is one chat request being answered, from its receipt.
type generation struct {
	h            *handler
	s            Schedule
	p            plan
	clk          *clock
	model        string
	id           string
	created      int64
	promptTokens int
	includeUsage bool

	start           time.Time // receipt: every offset counts from here
	next            int       // scheduled tokens sent so far (index of the next)
	extra           int       // tokens sent beyond the schedule (bigchunk)
	firstAt, lastAt time.Time // when the first and the latest text event were written
	injected        bool      // the badjson/bigchunk event went out
}

// begin waits for a slot (nil when the request ended meanwhile) and
// starts the clock.
func (h *handler) begin(ctx context.Context, req chatRequest, s Schedule, promptTokens int) *generation {
	if !h.acquireSlot(ctx) {
		return nil
	}
	h.stats.processing.Add(1)
	h.stats.promptTokens.Add(int64(promptTokens))
	seed := s.Seed
	if n := h.join(req.Model); s.Contention > 0 {
		seed += uint64(n - 1) // simultaneous streams of a contended model differ
	}
	return &generation{
		h: h, s: s, p: s.plan(req.maxTokens()), clk: s.newClock(seed),
		model:        req.Model,
		id:           fmt.Sprintf("chatcmpl-sim-%d", h.requests.Add(1)),
		created:      time.Now().Unix(),
		promptTokens: promptTokens,
		includeUsage: req.StreamOptions.IncludeUsage,
		start:        time.Now(),
	}
}

func (g *generation) end() {
	if !g.firstAt.IsZero() {
		g.h.stats.promptNanos.Add(int64(g.firstAt.Sub(g.start)))
		g.h.stats.predictedNanos.Add(int64(g.lastAt.Sub(g.firstAt)))
	}
	g.h.leave(g.model)
	g.h.stats.processing.Add(-1)
	g.h.releaseSlot()
}

func (h *handler) acquireSlot(ctx context.Context) bool {
	if h.slots == nil {
		return true
	}
	select {
	case h.slots <- struct{}{}:
		return true
	default:
	}
	h.stats.deferred.Add(1)
	defer h.stats.deferred.Add(-1)
	select {
	case h.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (h *handler) releaseSlot() {
	if h.slots != nil {
		<-h.slots
	}
}

// join counts one more generation of model running and returns how many are.
func (h *handler) join(model string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running[model]++
	return h.running[model]
}

func (h *handler) leave(model string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.running[model]--; h.running[model] == 0 {
		delete(h.running, model)
	}
}

// slowdown stretches the next gap by the contention of the streams of this
// model running now.
func (g *generation) slowdown() float64 {
	if g.s.Contention == 0 {
		return 1
	}
	g.h.mu.Lock()
	n := g.h.running[g.model]
	g.h.mu.Unlock()
	return 1 + g.s.Contention*float64(n-1)
}

// nextChunk is the number of tokens of the next text event, 0 at the end.
func (g *generation) nextChunk() int {
	if g.p.endless {
		return g.s.Chunk
	}
	return min(g.s.Chunk, g.p.total-g.next)
}

func (g *generation) stream(ctx context.Context, w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := newSSEWriter(w, g.s, g.start)
	if g.s.Role {
		empty := ""
		out.data(g.chunk(message{Role: "assistant", Content: &empty}, nil))
	}
	out.flush()
	if g.s.Fault == FaultNobody {
		<-ctx.Done()
		return
	}

	due := g.clk.next(0, g.slowdown()) // the first event, or the end when there is no text
	for {
		if !out.waitUntil(ctx, g.start.Add(due)) {
			return
		}
		n := g.nextChunk()
		if n == 0 {
			break
		}
		g.inject(out, false)
		g.send(out, g.message(g.next, g.next+n), n, 0)
		due = g.clk.next(g.nextChunk(), g.slowdown())
	}
	g.inject(out, true)

	switch g.s.Fault {
	case FaultError:
		out.data(errorEvent{apiError{Message: fmt.Sprintf("simulated server error after %d tokens", g.next), Type: "server_error", Code: 500}})
	case FaultEventError:
		out.raw("event: error\n")
		out.data(errorEvent{apiError{Message: "simulated tool call validation failure", Type: "invalid_request_error", Code: "tool_use_failed"}})
	case FaultClose:
		out.flush()
		if conn, _, err := out.rc.Hijack(); err == nil {
			_ = conn.Close() // mid-body: the client sees an unexpected EOF
		}
		return
	case FaultStall:
		out.hold(ctx)
		return
	default:
		g.finish(out)
	}
	out.flush()
}

// bigChunk is the bigchunk fault's event text: more than 1 MiB of one-token words.
var bigChunk = strings.Repeat(" the", 1<<18+1)

const bigChunkTokens = 1<<18 + 1

// inject sends the badjson or bigchunk event once `after` tokens have gone
// out, or at the end if the text is shorter.
func (g *generation) inject(out *sseWriter, atEnd bool) {
	if g.injected || (g.next < g.s.After && !atEnd) {
		return
	}
	switch g.s.Fault {
	case FaultBadJSON:
		out.rawData(`{"id":"` + g.id + `","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" trunc`)
	case FaultBigChunk:
		content := bigChunk
		g.send(out, message{Content: &content}, 0, bigChunkTokens)
	default:
		return
	}
	g.injected = true
}

// send writes one text event carrying n scheduled and extra unscheduled tokens.
func (g *generation) send(out *sseWriter, m message, n, extra int) {
	now := time.Now()
	if g.firstAt.IsZero() {
		g.firstAt = now
	}
	g.lastAt = now
	g.next += n
	g.extra += extra
	g.h.stats.predictedTokens.Add(int64(n + extra))
	out.data(g.chunk(m, nil))
}

// message is the text of scheduled tokens [from, to): reasoning first, then answer.
func (g *generation) message(from, to int) message {
	var m message
	reasoning := text(from, min(to, g.p.reasoning))
	content := text(max(from, g.p.reasoning), to)
	switch g.s.ReasoningField {
	case FieldThink:
		if from == 0 && g.p.reasoning > 0 {
			reasoning = "<think>" + reasoning
		}
		// The tag closes only a reasoning that was not cut short.
		if from < g.p.reasoning && g.p.reasoning <= to && g.p.reasoning == g.s.Reasoning {
			reasoning += "</think>"
		}
		content = reasoning + content
	case FieldReasoning:
		m.Reasoning = reasoning
	default:
		m.ReasoningContent = reasoning
	}
	if content != "" {
		m.Content = &content
	}
	return m
}

// finish ends a stream that ran its course: finish chunk, usage, [DONE].
func (g *generation) finish(out *sseWriter) {
	fin := g.chunk(message{}, &g.p.finish)
	switch g.s.Usage {
	case UsageFinish:
		fin.Usage = g.usage()
	case UsageXGroq:
		fin.Usage = g.usage()
		fin.XGroq = &xGroq{ID: "req_" + g.id, Usage: fin.Usage}
	}
	chunks := []chunk{fin}
	if g.s.Usage == UsageFinal && g.includeUsage {
		final := g.chunk(message{}, nil)
		final.Choices, final.Usage = []choice{}, g.usage()
		chunks = append(chunks, final)
	}
	if g.s.Timings {
		chunks[len(chunks)-1].Timings = g.timings()
	}
	for _, c := range chunks {
		out.data(c)
	}
	if g.s.Done {
		out.rawData("[DONE]")
	}
}

// respond answers a request without "stream": one JSON completion when the
// last event would have been sent.
func (g *generation) respond(ctx context.Context, w http.ResponseWriter) {
	offsets := g.p.offsets(g.s.Chunk, g.clk, g.slowdown)
	end := g.clk.next(0, g.slowdown()) // the last event's offset, or ttft when there is none
	var a alarm
	if !a.sleepUntil(ctx, g.start.Add(end)) {
		return
	}
	if len(offsets) > 0 {
		g.firstAt, g.lastAt = g.start.Add(offsets[0]), g.start.Add(end)
	}
	m := g.message(0, g.p.total)
	m.Role = "assistant"
	if m.Content == nil {
		m.Content = new(string)
	}
	g.next = g.p.total
	g.h.stats.predictedTokens.Add(int64(g.p.total))
	resp := completion{ID: g.id, Object: "chat.completion", Created: g.created, Model: g.model,
		Choices: []completionChoice{{Message: m, FinishReason: g.p.finish}}}
	if g.s.Usage != UsageNone {
		resp.Usage = g.usage()
	}
	if g.s.Timings {
		resp.Timings = g.timings()
	}
	writeJSON(w, http.StatusOK, resp)
}

// chunk is one streamed event with at most one choice (finish may be nil).
func (g *generation) chunk(m message, finish *string) chunk {
	c := chunk{ID: g.id, Object: "chat.completion.chunk", Created: g.created, Model: g.model, SystemFingerprint: "tpsrace-sim",
		Choices: []choice{{Delta: m, FinishReason: finish}}}
	if g.s.Usage == UsageCumulative {
		c.Usage = g.usage()
	}
	return c
}

// usage reports what has been sent so far.
func (g *generation) usage() *usage {
	reasoning := min(g.next, g.p.reasoning)
	output := g.next + g.extra
	u := &usage{PromptTokens: g.promptTokens, CompletionTokens: output, TotalTokens: g.promptTokens + output}
	if g.s.ExclReasoning {
		u.CompletionTokens -= reasoning
	}
	if reasoning > 0 {
		u.Details = &tokenDetails{ReasoningTokens: reasoning}
	}
	return u
}

// timings is llama-server's report of itself, from what was really sent:
// prompt phase = receipt to first text event, predicted = first to last.
func (g *generation) timings() *timings {
	first, last := g.firstAt, g.lastAt
	if first.IsZero() {
		first, last = time.Now(), time.Now()
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	t := &timings{PromptN: g.promptTokens, PromptMS: ms(first.Sub(g.start)), PredictedN: g.next + g.extra, PredictedMS: ms(last.Sub(first))}
	if t.PromptN > 0 {
		t.PromptPerTokenMS = t.PromptMS / float64(t.PromptN)
	}
	if t.PromptMS > 0 {
		t.PromptPerSecond = float64(t.PromptN) / t.PromptMS * 1000
	}
	if t.PredictedN > 0 {
		t.PredictedPerTokenMS = t.PredictedMS / float64(t.PredictedN)
	}
	if t.PredictedMS > 0 {
		t.PredictedPerSecond = float64(t.PredictedN-1) / t.PredictedMS * 1000
	}
	return t
}

// Wire types.

type chunk struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"`
	Model             string   `json:"model"`
	SystemFingerprint string   `json:"system_fingerprint"`
	Choices           []choice `json:"choices"`
	Usage             *usage   `json:"usage,omitempty"`
	XGroq             *xGroq   `json:"x_groq,omitempty"`
	Timings           *timings `json:"timings,omitempty"`
}

type choice struct {
	Index        int     `json:"index"`
	Delta        message `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

// message is a stream's delta, or a completion's whole message.
type message struct {
	Role             string  `json:"role,omitempty"`
	Content          *string `json:"content,omitempty"`
	ReasoningContent string  `json:"reasoning_content,omitempty"`
	Reasoning        string  `json:"reasoning,omitempty"`
}

type usage struct {
	PromptTokens     int           `json:"prompt_tokens"`
	CompletionTokens int           `json:"completion_tokens"`
	TotalTokens      int           `json:"total_tokens"`
	Details          *tokenDetails `json:"completion_tokens_details,omitempty"`
}

type tokenDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

type xGroq struct {
	ID    string `json:"id"`
	Usage *usage `json:"usage"`
}

type timings struct {
	PromptN             int     `json:"prompt_n"`
	PromptMS            float64 `json:"prompt_ms"`
	PromptPerTokenMS    float64 `json:"prompt_per_token_ms"`
	PromptPerSecond     float64 `json:"prompt_per_second"`
	PredictedN          int     `json:"predicted_n"`
	PredictedMS         float64 `json:"predicted_ms"`
	PredictedPerTokenMS float64 `json:"predicted_per_token_ms"`
	PredictedPerSecond  float64 `json:"predicted_per_second"`
}

type errorEvent struct {
	Error apiError `json:"error"`
}

type completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   *usage             `json:"usage,omitempty"`
	Timings *timings           `json:"timings,omitempty"`
}

type completionChoice struct {
	Index        int     `json:"index"`
	Message      message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}
