package sim

import (
	"cmp"
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"
)

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
	calls        []toolEvent // the answer is these tool calls (after any reasoning); nil: text

	start           time.Time // receipt: every offset counts from here
	next            int       // scheduled tokens sent so far (index of the next)
	extra           int       // tokens sent beyond the schedule (bigchunk)
	firstAt, lastAt time.Time // when the first and the latest text event were written
	injected        bool      // the badjson/bigchunk event went out
}

// begin waits for a slot (nil when the request ended meanwhile) and
// starts the clock at the request's receipt: when its headers were read
// (received; reading, decoding and tokenizing a long prompt since then
// cost milliseconds that are not on the schedule, more on a busy box), or
// when it got a slot it queued for.
func (h *handler) begin(ctx context.Context, req chatRequest, s Schedule, promptTokens int, received time.Time) *generation {
	queuedUntil, ok := h.acquireSlot(ctx)
	if !ok {
		return nil
	}
	h.stats.processing.Add(1)
	h.stats.promptTokens.Add(int64(promptTokens))
	seed := s.Seed
	if n := h.join(req.Model); s.Contention > 0 {
		seed += uint64(n - 1) // simultaneous streams of a contended model differ
	}
	clk := s.newClock(seed)
	clk.prefill = s.prefillTime(promptTokens)
	p := s.plan(req.maxTokens())
	return &generation{
		h: h, s: s, p: p, clk: clk,
		model:        req.Model,
		id:           fmt.Sprintf("chatcmpl-sim-%d", h.requests.Add(1)),
		created:      time.Now().Unix(),
		promptTokens: promptTokens,
		includeUsage: req.StreamOptions.IncludeUsage,
		calls:        req.calls(s, p),
		start:        latest(received, queuedUntil),
	}
}

func (g *generation) end() {
	if !g.firstAt.IsZero() {
		g.h.stats.promptNanos.Add(int64(g.promptPhase()))
		g.h.stats.predictedNanos.Add(int64(g.lastAt.Sub(g.firstAt)))
	}
	g.h.leave(g.model)
	g.h.stats.processing.Add(-1)
	g.h.releaseSlot()
}

// acquireSlot takes a slot (with Options.Slots), waiting for one if all
// are taken; queuedUntil is when a wait ended (zero: no wait), ok false when
// the request ended first.
func (h *handler) acquireSlot(ctx context.Context) (queuedUntil time.Time, ok bool) {
	if h.slots == nil {
		return time.Time{}, true
	}
	select {
	case h.slots <- struct{}{}:
		return time.Time{}, true
	default:
	}
	h.stats.deferred.Add(1)
	defer h.stats.deferred.Add(-1)
	select {
	case h.slots <- struct{}{}:
		return time.Now(), true
	case <-ctx.Done():
		return time.Time{}, false
	}
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (h *handler) releaseSlot() {
	if h.slots != nil {
		<-h.slots
	}
}

// seen reports whether model was asked prompt before (prefixcache=N's prefix
// cache, which holds every prompt it was sent), and remembers it.
func (h *handler) seen(model, prompt string) bool {
	key := sha256.Sum256([]byte(model + "\x00" + prompt))
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.prompts == nil {
		h.prompts = map[[32]byte]bool{}
	}
	hit := h.prompts[key]
	h.prompts[key] = true
	return hit
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

// slowdown stretches the next gap by the batching of the streams of this
// model running now (Schedule.Slowdown).
func (g *generation) slowdown() float64 {
	if g.s.Contention == 0 && g.s.Batch == 0 {
		return 1
	}
	g.h.mu.Lock()
	n := g.h.running[g.model]
	g.h.mu.Unlock()
	return g.s.Slowdown(n)
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
	if g.s.Buffered { // outside the compressor, as a proxy's buffer is
		h := &heldResponse{proxied: proxied{ResponseWriter: w}}
		defer h.close()
		w = h
	}
	if g.s.Gzip {
		z := newGzipResponse(w)
		defer z.close()
		w = z
	}
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
	if g.calls != nil {
		g.streamCalls(ctx, out)
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
	g.conclude(ctx, out)
}

// conclude ends a stream whose events have gone out as its fault says: an
// error event, the connection dropped or held (the faults that cut a
// stream, after=N tokens), else finish_reason, usage and [DONE]; badjson's
// or bigchunk's event first if the answer was shorter than after=N.
func (g *generation) conclude(ctx context.Context, out *sseWriter) {
	g.inject(out, true)
	switch g.s.Fault {
	case FaultError:
		out.data(errorEvent{apiError{Message: fmt.Sprintf("simulated server error after %d tokens", g.next), Type: "server_error", Code: 500}})
	case FaultEventError:
		out.line("event: error")
		out.data(errorEvent{apiError{Message: "simulated tool call validation failure", Type: "invalid_request_error", Code: "tool_use_failed"}})
	case FaultClose:
		out.flush()
		conn, _, err := out.rc.Hijack()
		if err != nil { // HTTP/2 has no connection to hand over: the stream is reset instead (RST_STREAM)
			panic(http.ErrAbortHandler)
		}
		_ = conn.Close() // mid-body: the client sees an unexpected EOF
		return
	case FaultStall:
		out.hold(ctx)
		return
	default:
		g.finish(out)
	}
	out.flush()
}

// bigChunk is the bigchunk fault's event text: more than 1 MiB of one-token
// words, made on first use (not at start-up: few commands run the simulator).
var bigChunk = sync.OnceValue(func() string { return strings.Repeat(" the", bigChunkTokens) })

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
		content := bigChunk()
		g.send(out, message{Content: &content}, 0, bigChunkTokens)
	default:
		return
	}
	g.injected = true
}

// send writes one text event carrying n scheduled and extra unscheduled
// tokens; an event with nothing to say (hidden reasoning) is decoded on
// the clock and counted, but not written.
func (g *generation) send(out *sseWriter, m message, n, extra int) {
	now := time.Now()
	if g.firstAt.IsZero() {
		g.firstAt = now
	}
	g.lastAt = now
	g.next += n
	g.extra += extra
	g.h.stats.predictedTokens.Add(int64(n + extra))
	if m.Content == nil && m.Reasoning == "" && m.ReasoningContent == "" && m.ToolCalls == nil {
		return
	}
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
	case FieldHidden: // thought, never sent
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
	for i, c := range chunks {
		if i == len(chunks)-1 && !g.s.Done {
			out.lastEvent()
		}
		out.data(c)
	}
	if g.s.Done {
		out.lastEvent()
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
	resp := completion{ID: g.id, Object: "chat.completion", Created: g.created, Model: g.servedModel(),
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
	c := chunk{ID: g.id, Object: "chat.completion.chunk", Created: g.created, Model: g.servedModel(), SystemFingerprint: g.s.Fingerprint,
		Provider: g.s.Route, Choices: []choice{{Delta: m, FinishReason: finish}}}
	if g.s.Usage == UsageCumulative {
		c.Usage = g.usage()
	}
	return c
}

// servedModel is the model name the response gives: served=, else the one asked for.
func (g *generation) servedModel() string { return cmp.Or(g.s.Served, g.model) }

// cached is the prompt tokens reported as served from the cache: cached=,
// never more than the prompt.
func (g *generation) cached() int { return min(g.s.Cached, g.promptTokens) }

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
	if g.cached() > 0 {
		u.PromptDetails = &promptDetails{CachedTokens: g.cached()}
	}
	return u
}

// prefillTime is the prefill of a prompt's uncached tokens: their count ÷
// prefill, exact (neither jitter nor contention stretches it); 0 without
// prefill=.
func (s Schedule) prefillTime(promptTokens int) time.Duration {
	if s.Prefill == 0 {
		return 0
	}
	return time.Duration(math.Round(float64(promptTokens-min(s.Cached, promptTokens)) / s.Prefill * float64(time.Second)))
}

// promptPhase is what llama-server times as its prompt processing: with
// prefill=, the prefill the schedule added (the rest of the TTFT is outside
// the server's prompt timer: the request's way in, the first token's
// sampling); without, receipt to the first text event, as a prompt that
// costs nothing has no time of its own to report.
func (g *generation) promptPhase() time.Duration {
	if g.s.Prefill > 0 {
		return g.clk.prefill
	}
	first := g.firstAt
	if first.IsZero() {
		first = time.Now()
	}
	return first.Sub(g.start)
}

// timings is llama-server's report of itself, from what was really sent:
// prompt phase = promptPhase (with prefill=, prompt_per_second is exactly
// prefill), predicted = first to last text event.
func (g *generation) timings() *timings {
	first, last := g.firstAt, g.lastAt
	if first.IsZero() {
		first, last = time.Now(), time.Now()
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	t := &timings{CacheN: g.cached(), PromptN: g.promptTokens - g.cached(), PromptMS: ms(g.promptPhase()), PredictedN: g.next + g.extra, PredictedMS: ms(last.Sub(first))}
	if t.PromptN > 0 {
		t.PromptPerTokenMS = t.PromptMS / float64(t.PromptN)
	}
	switch {
	case g.s.Prefill > 0 && t.PromptN > 0:
		t.PromptPerSecond = g.s.Prefill // PromptN ÷ PromptMS, before PromptMS's rounding to the ns
	case t.PromptMS > 0:
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
