package probes

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"tpsrace/config"
	"tpsrace/tokens"
	"tpsrace/workload"
)

// Request is what every stream of a race sends.
type Request struct {
	Prompt    string
	MaxTokens int
	// Tool, when set, is offered as the one function, with tool_choice
	// "required" (params may set another).
	Tool *workload.Function
	// Answer, when set, asks for JSON following its schema
	// (response_format json_schema, strict; params may set json_object).
	Answer *workload.Function
	// InputTokens, when set, pads Prompt to that many o200k tokens
	// (workload.Pad) with Nonce first (when empty, one of the race's own),
	// so that no prefix cache helps unless the nonce is reused on purpose:
	// the long-context and cached-prefix workloads.
	InputTokens int
	Nonce       string
	// FollowUps are a conversation's user messages after Prompt, the last
	// this turn's; Answers[i] the answers provider i gave to the turns
	// before (Conversation keeps them): the multi-turn workload.
	FollowUps []string
	Answers   [][]string
}

// probe measures one stream. It is built before the race is released, with
// its first request complete (prepare), so the goroutine that runs it only
// has to write.
type probe struct {
	provider config.Provider
	http     *http.Client
	body     *requestBody // shared by the provider's streams
	retries  int
	stream   int
	emit     func(Event) // called from the probe's goroutine; must not block
	emitTool func(ToolDelta)

	ctx    context.Context // the stream's, from prepare
	cancel context.CancelCauseFunc
	first  *attempt // the first request, built by prepare
}

func newRequest(p config.Provider, r Request) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model:         p.Model,
		Messages:      r.messages(),
		MaxTokens:     r.MaxTokens,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if f := r.Tool; f != nil {
		req.Tools = []openai.Tool{{Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: f.Name, Description: f.Description, Parameters: f.Parameters}}}
		req.ToolChoice = "required"
	}
	if f := r.Answer; f != nil {
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: f.Name, Description: f.Description, Schema: f.Parameters, Strict: true}}
	}
	return req
}

// messages are the conversation so far: the prompt, then each earlier
// answer and the user message after it. The answers are those of the
// provider the request is for (forProvider).
func (r Request) messages() []openai.ChatCompletionMessage {
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: r.Prompt}}
	for j, followUp := range r.FollowUps {
		answer := ""
		if len(r.Answers) == 1 && j < len(r.Answers[0]) {
			answer = r.Answers[0][j]
		}
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: answer},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: followUp})
	}
	return msgs
}

// conversationTokens is the o200k count of every message of a multi-turn
// request after its first turn; 0 for any other request.
func (r Request) conversationTokens() int {
	if len(r.FollowUps) == 0 {
		return 0
	}
	n := 0
	for _, m := range r.messages() {
		n += tokens.Count(m.Content)
	}
	return n
}

// forProvider is r as provider i sends it: with its own earlier answers.
func (r Request) forProvider(i int) Request {
	if i < len(r.Answers) {
		r.Answers = r.Answers[i : i+1]
	} else {
		r.Answers = nil
	}
	return r
}

// Conversation keeps each provider's answers of a multi-turn race, turn
// after turn: the answer of its first stream.
type Conversation struct{ answers [][]string }

// Turn is r for the turn whose user messages after the prompt are
// followUps: a first turn (none) starts the conversation anew.
func (c *Conversation) Turn(r Request, followUps []string) Request {
	if len(followUps) == 0 {
		c.answers = nil
	}
	r.FollowUps, r.Answers = followUps, c.answers
	return r
}

// Heard adds each provider's answer of a finished turn.
func (c *Conversation) Heard(results [][]Result) {
	c.answers = append(c.answers[:0:0], c.answers...)
	for len(c.answers) < len(results) {
		c.answers = append(c.answers, nil)
	}
	for i, streams := range results {
		var answer strings.Builder
		if len(streams) > 0 {
			for e := range streams[0].Events.Values() {
				answer.WriteString(e.Content)
			}
		}
		c.answers[i] = append(slices.Clip(c.answers[i]), answer.String())
	}
}

// requestBody is what every stream of one provider posts, encoded once
// before the release: go-openai's request type, validated as go-openai
// does, with providers.yaml's params merged in.
type requestBody struct {
	url  string
	body []byte
	err  error // the request could not be built; each stream reports it
}

func newRequestBody(p config.Provider, r Request) *requestBody {
	req := newRequest(p, r)
	b := &requestBody{url: strings.TrimRight(p.BaseURL, "/") + "/chat/completions"}
	if b.err = openai.NewReasoningValidator().Validate(req); b.err != nil {
		return b
	}
	if b.body, b.err = json.Marshal(req); b.err != nil || len(p.Params) == 0 {
		return b
	}
	b.body, b.err = mergeParams(b.body, p.Params)
	return b
}

// prepare builds the stream's context and its first request, before the
// release.
func (pb *probe) prepare(ctx context.Context) {
	pb.ctx, pb.cancel = context.WithCancelCause(ctx)
	pb.first = pb.newAttempt(pb.ctx)
}

// attempt is one request of a stream, built before it is sent: its context
// (which the attempt's limits cancel with a *Failure as the cause), the
// http.Request with its body and headers, and the connection phases the
// trace marks.
type attempt struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	req    *http.Request // nil when err is set
	err    error
	// release is set before the request is sent; the trace reads it. The
	// transport calls the trace from its own goroutines, even after the
	// request returned (an abandoned dial), hence atomics.
	release                                   time.Time
	dns, connected, handshake, wrote, firstBy atomic.Int64
	// ended is when the stream completed (data: [DONE] or the body's end),
	// since release: the stream's end, before the rest of the body is read
	// (drainRest). 0 when it did not complete.
	ended time.Duration
}

func (pb *probe) newAttempt(ctx context.Context) *attempt {
	a := &attempt{}
	a.ctx, a.cancel = context.WithCancelCause(ctx)
	if a.err = pb.body.err; a.err != nil {
		return a
	}
	mark := func(v *atomic.Int64) { v.CompareAndSwap(0, int64(time.Since(a.release))) }
	traced := httptrace.WithClientTrace(a.ctx, &httptrace.ClientTrace{
		DNSDone:              func(httptrace.DNSDoneInfo) { mark(&a.dns) },
		ConnectDone:          func(string, string, error) { mark(&a.connected) },
		TLSHandshakeDone:     func(tls.ConnectionState, error) { mark(&a.handshake) },
		WroteRequest:         func(httptrace.WroteRequestInfo) { mark(&a.wrote) },
		GotFirstResponseByte: func() { mark(&a.firstBy) },
	})
	if a.req, a.err = http.NewRequestWithContext(traced, http.MethodPost, pb.body.url, bytes.NewReader(pb.body.body)); a.err != nil {
		return a
	}
	// The headers go-openai sends with a stream, then the provider's.
	h := a.req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	// A server may close a kept-alive connection just as the request goes
	// out on it (a keep-alive timeout; llama-server does it now and then):
	// the request never reached it, and net/http sends it again on a new
	// connection, as it does for GET, when the request carries an
	// idempotency key. An empty one marks it so without sending a header.
	// The dial shows in the stream's phases, as any dial does.
	h["Idempotency-Key"] = []string{}
	setProviderHeaders(h, pb.provider)
	return a
}

// setProviderHeaders sets what every request to p carries, its streams' and
// --warm's alike: the key as a bearer token, then providers.yaml's headers,
// which override it.
func setProviderHeaders(h http.Header, p config.Provider) {
	if key := p.APIKey.Reveal(); key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	for k, v := range p.Headers {
		h.Set(k, v)
	}
}

func (a *attempt) phases() Phases {
	d := func(v *atomic.Int64) time.Duration { return time.Duration(v.Load()) }
	return Phases{DNS: d(&a.dns), Connected: d(&a.connected), TLS: d(&a.handshake), WroteRequest: d(&a.wrote), FirstByte: d(&a.firstBy)}
}

// run sends the request (retrying before the first byte only, when allowed)
// and records the stream. Times are measured from release.
func (pb *probe) run(release time.Time) Result {
	res := Result{Provider: pb.provider.Name, Model: pb.provider.Model, Stream: pb.stream, Release: release, Price: pb.provider.Price}
	lim := pb.provider.Timeout.Or(config.DefaultTimeouts)
	ctx, cancel := pb.ctx, pb.cancel
	defer cancel(nil)
	total := time.AfterFunc(lim.Total-time.Since(release), func() {
		cancel(&Failure{Kind: KindTimeout, Message: "total time limit " + lim.Total.String() + " reached"})
	})
	defer total.Stop()
	firstToken := time.AfterFunc(lim.FirstToken-time.Since(release), func() {
		cancel(&Failure{Kind: KindTimeout, Message: "no token within " + lim.FirstToken.String() + " (first_token limit)"})
	})
	defer firstToken.Stop()

	for attempt := 0; ; attempt++ {
		a := pb.first
		if attempt > 0 {
			a = pb.newAttempt(ctx)
		}
		f := pb.attempt(a, release, lim, firstToken, &res)
		res.End = time.Since(release)
		if f == nil && a.ended > 0 {
			res.End = a.ended
		}
		if f == nil || attempt >= pb.retries || !retryable(f, &res) {
			if f != nil {
				f.redact(pb.provider.APIKey.Reveal(), urlSecret(pb.provider.BaseURL))
				res.Err = f
				res.Interrupted = f.Kind == KindCancelled
			}
			return res
		}
		res.Retries++
		if wait, err := strconv.Atoi(f.RetryAfter); err == nil && wait > 0 {
			select {
			case <-time.After(time.Duration(wait) * time.Second):
			case <-ctx.Done():
			}
		}
	}
}

// retryable: only a request that failed before the first byte of its stream
// may be sent again, so a retry can never bend a measured stream.
func retryable(f *Failure, res *Result) bool {
	if res.Events.Len() > 0 {
		return false
	}
	switch f.Kind {
	case KindNetwork:
		return res.Phases.FirstByte == 0
	case KindHTTP:
		return f.Status == 429 || f.Status >= 500
	}
	return false
}

// attempt sends a's request once and records its stream into res.
func (pb *probe) attempt(a *attempt, release time.Time, lim config.Timeouts, firstToken *time.Timer, res *Result) *Failure {
	defer a.cancel(nil)
	a.release = release
	defer func() { res.Phases = a.phases() }()
	var retryAfter string
	err := a.err
	if err == nil {
		err = pb.send(a, lim, firstToken, res, &retryAfter)
	}
	if err == nil {
		return nil
	}
	return pb.failure(a.ctx, err, res, retryAfter)
}

func (pb *probe) send(a *attempt, lim config.Timeouts, firstToken *time.Timer, res *Result, retryAfter *string) error {
	release, cancel := a.release, a.cancel
	since := func() time.Duration { return time.Since(release) }

	var streamed atomic.Int64 // tokens so far, read by the stall timer's goroutine
	var lastByte atomic.Int64 // since release, stamped by sseReader on every read
	var stall *time.Timer
	// The stall timer checks the last byte's time when it fires and re-arms
	// for the rest, so a read costs an atomic store, not a timer reset.
	stall = time.AfterFunc(time.Hour, func() {
		if quiet := since() - time.Duration(lastByte.Load()); quiet < lim.Stall {
			stall.Reset(lim.Stall - quiet)
			return
		}
		cancel(&Failure{Kind: KindTimeout, Message: fmt.Sprintf("stalled %s after %d tokens", lim.Stall, streamed.Load())})
	})
	stall.Stop()
	defer stall.Stop()
	connect := time.AfterFunc(lim.Connect, func() {
		cancel(&Failure{Kind: KindTimeout, Message: "no response within " + lim.Connect.String() + " (connect limit)"})
	})
	resp, err := pb.http.Do(a.req)
	connect.Stop()
	if err != nil {
		return err
	}
	completed := false
	defer func() {
		if completed {
			drainRest(resp.Body, cancel)
		}
		resp.Body.Close()
	}()
	*retryAfter = resp.Header.Get("Retry-After")
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return statusError(resp)
	}
	body := newSSEReader(resp.Body, func() { lastByte.Store(int64(since())) })
	lastByte.Store(int64(since()))
	stall.Reset(lim.Stall)

	var think thinkSplitter
	// The whole answer's o200k count is kept up to date as it arrives, so
	// it is ready when the stream ends.
	var answerCount, reasoningCount tokens.Counter
	defer func() { res.O200kTokens = answerCount.Total() + reasoningCount.Total() }()
	record := func(content, reasoning string) {
		if content == "" && reasoning == "" {
			return
		}
		ev := Event{At: since(), Content: content, Reasoning: reasoning, Tokens: tokens.Count(content) + tokens.Count(reasoning)}
		answerCount.Add(content)
		reasoningCount.Add(reasoning)
		if res.Events.Len() == 0 {
			firstToken.Stop()
		}
		res.Events.Append(ev)
		streamed.Add(int64(ev.Tokens))
		if pb.emit != nil {
			pb.emit(ev)
		}
	}
	for {
		raw, err := body.next()
		if errors.Is(err, io.EOF) {
			record(think.flush())
			if res.FinishReason == "" && !body.done {
				return &Failure{Kind: KindNetwork, Message: fmt.Sprintf("stream ended after %d tokens without finish_reason or [DONE]", streamed.Load())}
			}
			a.ended, completed = since(), true
			return nil
		}
		if err != nil {
			return err
		}
		d, err := decodeChunk(raw, &res.Served)
		if err != nil {
			return err
		}
		if d.Err != nil {
			return d.Err
		}
		content, thought := think.split(d.Content)
		record(content, d.Reasoning+thought)
		for _, tc := range d.ToolCalls {
			tc.At = since()
			if res.Events.Len() == 0 && len(res.ToolDeltas) == 0 {
				firstToken.Stop() // a call is the answer's first token
			}
			res.ToolDeltas = append(res.ToolDeltas, tc)
			if pb.emitTool != nil {
				pb.emitTool(tc)
			}
		}
		if d.Usage != nil {
			res.Usage = d.Usage
		}
		if d.FinishReason != "" {
			res.FinishReason = d.FinishReason
		}
		if d.Timings != nil {
			res.Timings = d.Timings
		}
	}
}

// drainLimit bounds drainRest: what follows data: [DONE] (the chunked
// body's last chunk) is as a rule already in the socket's buffer.
const drainLimit = 100 * time.Millisecond

// drainRest reads what is left of a completed stream's body, so the
// connection goes back to the pool: a body closed before its end closes
// its connection, and the provider's next race would pay DNS/TCP/TLS
// again (flagged cold_connection, its TTFT inflated; on loopback 1 ms, to a
// cloud provider a TLS handshake) at random, as the end happened to arrive
// with [DONE] or just after it. A server that keeps the body open gets
// drainLimit, then its connection is closed as before. The stream's end
// was stamped before (attempt.ended), so this never counts in its figures.
func drainRest(body io.Reader, cancel context.CancelCauseFunc) {
	limit := time.AfterFunc(drainLimit, func() { cancel(nil) })
	defer limit.Stop()
	_, _ = io.Copy(io.Discard, io.LimitReader(body, 64<<10))
}

// failure turns any error of an attempt into a Failure. A limit or the user
// cancelling reaches the reader as a plain I/O error; the context's cause
// says which it was.
func (pb *probe) failure(ctx context.Context, err error, res *Result, retryAfter string) *Failure {
	if cause := context.Cause(ctx); cause != nil {
		var f *Failure
		if errors.As(cause, &f) {
			return f
		}
		return &Failure{Kind: KindCancelled, Message: fmt.Sprintf("cancelled after %d tokens", res.Events.TokensBefore(res.Events.Len()))}
	}
	var f *Failure
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &f):
	case errors.As(err, &reqErr):
		// Before apiErr: go-openai wraps an empty APIError in it when
		// the body is not {"error":{"message":…}}.
		f = httpFailure(reqErr.HTTPStatusCode, reqErr.Body)
	case errors.As(err, &apiErr):
		f = &Failure{Kind: KindHTTP, Status: apiErr.HTTPStatusCode, Message: apiErr.Message}
		if apiErr.Code != nil {
			f.Code = codeUnlessStatus(fmt.Sprint(apiErr.Code), apiErr.HTTPStatusCode)
		}
		if f.Message == "" { // {"error":{"message":"","type":"…"}}
			f.Message = apiErr.Type
		}
	case errors.Is(err, syscall.ECONNREFUSED):
		f = &Failure{Kind: KindNetwork, Message: "connection refused", Hint: "is the server at " + config.RedactURL(pb.provider.BaseURL) + " running?"}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		f = &Failure{Kind: KindNetwork, Message: fmt.Sprintf("connection closed mid-stream after %d tokens", res.Events.TokensBefore(res.Events.Len()))}
	default:
		var netErr net.Error
		f = &Failure{Kind: KindNetwork, Message: err.Error()}
		if !errors.As(err, &netErr) && res.Phases.FirstByte == 0 {
			f.Kind = KindProtocol
		}
	}
	if f.Kind == KindHTTP {
		f.RetryAfter = retryAfter
		f.Hint = hint(pb.provider, f.Status)
	}
	return f.withReason()
}

// urlSecret is the user:password part of a URL, to be redacted from errors.
func urlSecret(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	return u.User.String()
}

// hint says what the user can do about an HTTP error.
func hint(p config.Provider, status int) string {
	key := "api_key in " + p.Where
	if p.KeyVar != "" {
		key = p.KeyVar
	}
	switch status {
	case 401, 403:
		return "check " + key
	case 404:
		return fmt.Sprintf("check the model name %q and base_url", p.Model)
	case 429:
		return "rate limited: wait, or lower --concurrency"
	}
	return ""
}

// statusError is the error of an error status, as go-openai's client makes
// it (failure reads it): an *openai.APIError when the body is
// {"error":{…}}, else an *openai.RequestError with the body.
func statusError(resp *http.Response) error {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("error, reading response body: %w", err)
	}
	var errRes openai.ErrorResponse
	err = json.Unmarshal(body, &errRes)
	if err != nil || errRes.Error == nil {
		reqErr := &openai.RequestError{HTTPStatus: resp.Status, HTTPStatusCode: resp.StatusCode, Err: err, Body: body}
		if errRes.Error != nil {
			reqErr.Err = errRes.Error
		}
		return reqErr
	}
	errRes.Error.HTTPStatus = resp.Status
	errRes.Error.HTTPStatusCode = resp.StatusCode
	return errRes.Error
}

// mergeParams adds providers.yaml's params to the JSON body. They override
// tpsrace's fields (a JSON null removes one), except the few that make the
// request a measured stream.
func mergeParams(raw []byte, params map[string]any) ([]byte, error) {
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	for k, v := range params {
		if config.ReservedParam(k) {
			continue
		}
		if v == nil {
			delete(body, k)
		} else {
			body[k] = v
		}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	return raw, nil
}
