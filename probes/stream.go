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
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"tpsrace/config"
	"tpsrace/tokens"
)

// Request is what every stream of a race sends.
type Request struct {
	Prompt    string
	MaxTokens int
}

// probe measures one stream. It is built before the race is released, so the
// goroutine that runs it only has to send.
type probe struct {
	provider config.Provider
	http     *http.Client
	request  openai.ChatCompletionRequest
	retries  int
	stream   int
	emit     func(Event) // called from the probe's goroutine; must not block
}

func newRequest(p config.Provider, r Request) openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{
		Model:         p.Model,
		Messages:      []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: r.Prompt}},
		MaxTokens:     r.MaxTokens,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
}

// run sends the request (retrying before the first byte only, when allowed)
// and records the stream. Times are measured from release.
func (pb *probe) run(ctx context.Context, release time.Time) Result {
	res := Result{Provider: pb.provider.Name, Model: pb.provider.Model, Stream: pb.stream, Release: release, Price: pb.provider.Price}
	lim := pb.provider.Timeout.Or(config.DefaultTimeouts)
	ctx, cancel := context.WithCancelCause(ctx)
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
		f := pb.attempt(ctx, release, lim, firstToken, &res)
		res.End = time.Since(release)
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

// attempt sends the request once and records its stream into res.
func (pb *probe) attempt(ctx context.Context, release time.Time, lim config.Timeouts, firstToken *time.Timer, res *Result) *Failure {
	// The attempt's limits cancel this context with a *Failure as the cause,
	// which failure reads back.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	doer := &streamDoer{http: pb.http, params: pb.provider.Params, headers: pb.provider.Headers}
	err := pb.send(ctx, cancel, release, lim, firstToken, doer, res)
	if err == nil {
		return nil
	}
	return pb.failure(ctx, err, res, doer.retryAfter)
}

func (pb *probe) send(ctx context.Context, cancel context.CancelCauseFunc, release time.Time, lim config.Timeouts, firstToken *time.Timer, doer *streamDoer, res *Result) error {
	since := func() time.Duration { return time.Since(release) }
	// The transport calls these from its own goroutines, even after the
	// request returned (an abandoned dial), hence atomics.
	var dns, connected, handshake, wrote, firstByte atomic.Int64
	mark := func(v *atomic.Int64) { v.CompareAndSwap(0, int64(since())) }
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		DNSDone:              func(httptrace.DNSDoneInfo) { mark(&dns) },
		ConnectDone:          func(string, string, error) { mark(&connected) },
		TLSHandshakeDone:     func(tls.ConnectionState, error) { mark(&handshake) },
		WroteRequest:         func(httptrace.WroteRequestInfo) { mark(&wrote) },
		GotFirstResponseByte: func() { mark(&firstByte) },
	})
	defer func() {
		d := func(v *atomic.Int64) time.Duration { return time.Duration(v.Load()) }
		res.Phases = Phases{DNS: d(&dns), Connected: d(&connected), TLS: d(&handshake), WroteRequest: d(&wrote), FirstByte: d(&firstByte)}
	}()

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
	doer.onBytes = func() { lastByte.Store(int64(since())) }
	cfg := openai.DefaultConfig(pb.provider.APIKey.Reveal())
	cfg.BaseURL = pb.provider.BaseURL
	cfg.HTTPClient = doer
	// go-openai builds and sends the request and reads an error status's
	// body; the events are read from doer.body, never through the stream.
	stream, err := openai.NewClientWithConfig(cfg).CreateChatCompletionStream(ctx, pb.request)
	connect.Stop()
	if err != nil {
		return err
	}
	defer stream.Close()
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
		raw, err := doer.body.next()
		if errors.Is(err, io.EOF) {
			record(think.flush())
			if res.FinishReason == "" && !doer.body.done {
				return &Failure{Kind: KindNetwork, Message: fmt.Sprintf("stream ended after %d tokens without finish_reason or [DONE]", streamed.Load())}
			}
			return nil
		}
		if err != nil {
			return err
		}
		d, err := decodeChunk(raw)
		if err != nil {
			return err
		}
		if d.Err != nil {
			return d.Err
		}
		content, thought := think.split(d.Content)
		record(content, d.Reasoning+thought)
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

// failure turns any error of an attempt into a Failure. A limit or the user
// cancelling reaches the reader as a plain I/O error; the context's cause
// says which it was.
func (pb *probe) failure(ctx context.Context, err error, res *Result, retryAfter string) *Failure {
	if cause := context.Cause(ctx); cause != nil {
		var f *Failure
		if errors.As(cause, &f) {
			return f
		}
		return &Failure{Kind: KindCancelled, Message: fmt.Sprintf("cancelled after %d tokens", res.Events.Len())}
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
		f = &Failure{Kind: KindNetwork, Message: fmt.Sprintf("connection closed mid-stream after %d tokens", res.Events.Len())}
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

// streamDoer is go-openai's HTTP client for one stream: it merges params
// into the body, adds headers, keeps the Retry-After header and puts an
// sseReader on a successful response's body.
type streamDoer struct {
	http       *http.Client
	params     map[string]any
	headers    map[string]string
	onBytes    func()
	body       *sseReader
	retryAfter string
}

func (d *streamDoer) Do(req *http.Request) (*http.Response, error) {
	if len(d.params) > 0 {
		if err := mergeParams(req, d.params); err != nil {
			return nil, err
		}
	}
	for k, v := range d.headers {
		req.Header.Set(k, v)
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return nil, err
	}
	d.retryAfter = resp.Header.Get("Retry-After")
	if resp.StatusCode < 300 {
		d.body = newSSEReader(resp.Body, d.onBytes)
	}
	return resp, nil
}

// mergeParams adds providers.yaml's params to the JSON body. They override
// tpsrace's fields (a JSON null removes one), except the few that make the
// request a measured stream.
func mergeParams(req *http.Request, params map[string]any) error {
	var body map[string]any
	raw, err := io.ReadAll(req.Body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return err
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
	raw, err = json.Marshal(body)
	if err != nil {
		return fmt.Errorf("params: %w", err)
	}
	req.Body = io.NopCloser(bytes.NewReader(raw))
	req.ContentLength = int64(len(raw))
	return nil
}
