package probes

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"tpsrace/config"
)

// probe measures one stream. It is built before the race is released, with
// its first request complete (prepare), so the goroutine that runs it only
// has to write.
type probe struct {
	provider config.Provider
	http     *http.Client
	body     *requestBody // shared by the provider's streams
	retries  int
	stream   int
	shared   *SharedEvents   // where its events go when a reader follows them (Race.Run); nil: the Result's own
	emitTool func(ToolDelta) // called from the probe's goroutine; must not block
	tokens   *atomic.Int64   // Race.Tokens

	ctx    context.Context // the stream's, from prepare
	cancel context.CancelCauseFunc
	first  *attempt // the first request, built by prepare
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
	// unsent: the attempt's connection closed before any of its request
	// was written, so the server never saw it (see neverSent).
	unsent bool
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
		DNSDone:          func(httptrace.DNSDoneInfo) { mark(&a.dns) },
		ConnectDone:      func(string, string, error) { mark(&a.connected) },
		TLSHandshakeDone: func(tls.ConnectionState, error) { mark(&a.handshake) },
		WroteRequest: func(w httptrace.WroteRequestInfo) {
			if w.Err == nil { // the trace is called on a failed write too
				mark(&a.wrote)
			}
		},
		GotFirstResponseByte: func() { mark(&a.firstBy) },
	})
	if a.req, a.err = http.NewRequestWithContext(traced, http.MethodPost, pb.body.url, bytes.NewReader(pb.body.body)); a.err != nil {
		return a
	}
	// The headers go-openai sends with a stream, then the provider's.
	h := a.req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("Accept-Encoding", "identity") // encoding.go
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

// phases are the attempt's marks, each no later than a later phase marked:
// a later phase proves the earlier done by then. The trace's callbacks run
// on the transport's goroutines, so one may run after a later phase's (the
// response's first byte read before the writer said the request was
// written); and over HTTP/2 the streams of a cold race each dial, and all
// go out on the first connection ready, so a stream's own dial may finish
// after its request went out on a connection that had done it.
func (a *attempt) phases() Phases {
	d := func(v *atomic.Int64) time.Duration { return time.Duration(v.Load()) }
	p := Phases{DNS: d(&a.dns), Connected: d(&a.connected), TLS: d(&a.handshake), WroteRequest: d(&a.wrote), FirstByte: d(&a.firstBy)}
	var later time.Duration
	for _, at := range []*time.Duration{&p.FirstByte, &p.WroteRequest, &p.TLS, &p.Connected, &p.DNS} {
		if *at == 0 {
			continue
		}
		if later != 0 {
			*at = min(*at, later)
		}
		later = *at
	}
	return p
}

// run sends the request (retrying before the first byte only, when allowed)
// and records the stream. Times are measured from release.
func (pb *probe) run(release time.Time) Result {
	res := Result{Provider: pb.provider.Name, Model: pb.provider.Model, Stream: pb.stream, Release: release, Price: pb.provider.Price}
	if pb.shared != nil {
		res.Events = pb.shared.events // one record, the reader's and the Result's
	}
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
		again := attempt < pb.retries && retryable(f, &res) || attempt == 0 && a.unsent
		if f == nil || !again {
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
	a.unsent = neverSent(a, err)
	return pb.failure(a.ctx, err, res, retryAfter)
}

// neverSent reports whether a's connection closed before the request was
// written. net/http sends such a request again by itself only on a
// connection it reused; on a new one it gives up (a server that hangs up on
// a fresh connection may dislike the request), but when nothing was written
// the server cannot have seen it. llama-server closed a new connection so
// now and then (1 bench in a few hundred under load). A stream sends it once
// more, even without --retries, and counts the retry: it is flagged retried.
func neverSent(a *attempt, err error) bool {
	if a.wrote.Load() != 0 || a.firstBy.Load() != 0 || context.Cause(a.ctx) != nil {
		return false
	}
	return errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)
}

// send sends a's request and reads its stream into res.
func (pb *probe) send(a *attempt, lim config.Timeouts, firstToken *time.Timer, res *Result, retryAfter *string) error {
	connect := time.AfterFunc(lim.Connect, func() {
		a.cancel(&Failure{Kind: KindTimeout, Message: "no response within " + lim.Connect.String() + " (connect limit)"})
	})
	resp, err := pb.http.Do(a.req)
	connect.Stop()
	if err != nil {
		return err
	}
	completed := false
	defer func() {
		if completed {
			drainRest(resp.Body, a.cancel) // the raw body: what is left need not be decoded
		}
		resp.Body.Close()
	}()
	*retryAfter = resp.Header.Get("Retry-After")
	body, unread := decodedBody(resp)
	switch {
	case resp.StatusCode < 200 || resp.StatusCode >= 300:
		if unread != nil {
			body = strings.NewReader("") // the status alone says why
		}
		return statusError(resp.Status, resp.StatusCode, body)
	case unread != nil:
		return unread
	}
	rd := newStreamReader(pb, a.release, firstToken, res)
	stall := rd.watchStall(lim.Stall, a.cancel)
	defer stall.Stop()
	if err := rd.read(body); err != nil {
		return err
	}
	a.ended, completed = rd.since(), true
	return nil
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
