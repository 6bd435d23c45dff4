// Package probes sends one prompt to many providers at the same instant and
// records every stream: each text event stamped with the monotonic time since
// release, usage, finish reason, server timings and connection phases.
// Figures are computed from these records by package metrics, never here.
package probes

import (
	"context"
	"math/rand/v2"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"tpsrace/config"
	"tpsrace/tokens"
	"tpsrace/workload"
)

// Update is what a race reports while it runs: for each stream its text
// events (not with Race.Tokens), tool deltas and finally its Result.
type Update struct {
	Provider int // index into Race.Providers
	Stream   int // 0..Concurrency-1
	// Shared is the stream's record as it is written, given once, before
	// the release, where a race has updates and no Tokens: its text
	// events come through it, not as updates.
	Shared *SharedEvents
	// Events is the stream's record so far, a view of Shared
	// (SharedEvents.ViewAfter), as the dashboard's relay hands it on.
	Events Events
	Tool   *ToolDelta // a tool-call delta (the tool-call workload)
	Done   *Result
}

// Race describes one race: every provider gets Concurrency simultaneous streams.
type Race struct {
	Providers   []config.Provider
	Request     Request
	Concurrency int // streams per provider; 0 means 1
	Retries     int // retries allowed before a stream's first byte
	Clients     *Clients
	// Warm opens every stream's connection (DNS, TCP, TLS) before the
	// release, with the pooled client the stream then reuses, so that TTFT
	// measures the model and not the handshake (--warm).
	Warm bool
	// OnRelease, when set, is called once with the release instant, before
	// any stream is let go (so before any update). It must not block: the
	// streams wait for it.
	OnRelease func(release time.Time)
	// StartAt, when set, is the wall-clock instant of the release
	// (--start-at): every request is built and waiting before it, as at
	// the barrier, so that races on many hosts start together. An instant
	// already past releases at once (the recorded release then says how late).
	StartAt time.Time
	// Tokens, when set, has every text event's tokens added, those of the
	// events of one read together before the stream reads again (they
	// arrived at once), and the updates then carry no Shared record (tool
	// deltas and each stream's end still): a caller that shows a count and
	// not the events (bench's progress line) pays an atomic add per read
	// and reads nothing back.
	Tokens *atomic.Int64
}

// Clients keeps one HTTP client per provider, so connections are reused
// across races of one session (as an application would) and never shared
// between providers.
type Clients struct {
	mu      sync.Mutex
	clients map[string]*http.Client
}

func (c *Clients) get(p config.Provider, concurrency int) *http.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clients == nil {
		c.clients = map[string]*http.Client{}
	}
	key := p.Name + "\x00" + p.BaseURL
	if cl, ok := c.clients[key]; ok {
		return cl
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = max(concurrency, 64)
	t.DisableCompression = true // streams are asked for uncompressed: encoding.go
	// A connection keeps its write buffer for its life and writes one
	// request a stream: 1 KiB holds a usual request (its headers and a
	// prompt of a few hundred bytes: 446 bytes to the simulator) in one
	// write, a longer one in one more per 32 KiB (the rest of the body
	// goes to the socket past the buffer: 1,024 + 2,493 bytes for a 3.5
	// KB request). The default 4 KiB was 3 KiB more a stream, held for a
	// write at its start.
	t.WriteBufferSize = 1 << 10
	cl := &http.Client{Transport: t}
	c.clients[key] = cl
	return cl
}

// Close drops idle connections.
func (c *Clients) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cl := range c.clients {
		cl.CloseIdleConnections()
	}
}

// Run builds every request first (body, headers, contexts: the streams
// only write after the release), then releases all streams at one instant
// (a barrier), so no provider gets a head start. Updates, when non-nil, gets
// each stream's Shared record before the release (unless Tokens is set),
// then from the streams' own goroutines their tool deltas and their
// Results; the caller must drain it promptly. Run returns when every stream
// has ended, results[provider][stream]; cancelling ctx ends them all at once.
func (r Race) Run(ctx context.Context, updates chan<- Update) [][]Result {
	conc := max(r.Concurrency, 1)
	clients := r.Clients
	if clients == nil {
		clients = &Clients{}
		defer clients.Close()
	}
	results := make([][]Result, len(r.Providers))
	if r.Warm {
		r.warm(ctx, clients, conc)
	}
	req, inputTokens := r.request()
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	var release time.Time // written before start is closed, read after
	type prepared struct {
		body               *requestBody
		conversationTokens int
		http               *http.Client
	}
	each := make([]prepared, len(r.Providers))
	for i, p := range r.Providers {
		results[i] = make([]Result, conc)
		each[i] = prepared{newRequestBody(p, req.forProvider(i)), req.forProvider(i).conversationTokens(), clients.get(p, conc)}
	}
	// Stream by stream across the providers, not provider by provider, and
	// the providers in a new random order for each stream: the streams
	// leave the barrier about in the order they wait at it, a few at a time
	// on a few cores. In provider order one provider's streams left
	// milliseconds after another's at C=16 (start skew, all of it against
	// one), and at C=1 the same provider was last in every race.
	for s := range conc {
		for _, i := range rand.Perm(len(r.Providers)) {
			p := r.Providers[i]
			pb := &probe{provider: p, http: each[i].http, body: each[i].body, retries: r.Retries, stream: s, tokens: r.Tokens}
			pb.prepare(ctx)
			if updates != nil {
				if r.Tokens == nil {
					pb.shared = NewSharedEvents()
					updates <- Update{Provider: i, Stream: s, Shared: pb.shared}
				}
				pb.emitTool = func(d ToolDelta) { updates <- Update{Provider: i, Stream: s, Tool: &d} }
			}
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				<-start
				sent := time.Since(release)
				res := pb.run(release)
				res.Sent, res.InputTokens, res.ConversationTokens = sent, inputTokens, each[i].conversationTokens
				results[i][s] = res
				if updates != nil {
					updates <- Update{Provider: i, Stream: s, Done: &res}
				}
			}()
		}
	}
	Warm()
	load := newLoadMeter()
	ready.Wait()
	if !r.StartAt.IsZero() {
		waitUntil(ctx, r.StartAt)
	}
	release = time.Now()
	if r.OnRelease != nil {
		r.OnRelease(release)
	}
	load.begin(release)
	close(start)
	done.Wait()
	clientLoad := load.end()
	for i := range results {
		for s := range results[i] {
			results[i][s].Load = clientLoad
		}
	}
	return results
}

// warm opens every stream's connection before the release (--warm).
func (r Race) warm(ctx context.Context, clients *Clients, conc int) {
	var warming sync.WaitGroup
	for _, p := range r.Providers {
		warming.Go(func() { warmUp(ctx, clients.get(p, conc), p, conc) })
	}
	warming.Wait()
}

// request is the race's request, its prompt padded to InputTokens (a
// long-context or cached-prefix step) with those o200k tokens counted (0
// when not padded).
func (r Race) request() (Request, int) {
	req := r.Request
	if req.InputTokens <= 0 {
		return req, 0
	}
	nonce := req.Nonce
	if nonce == "" {
		nonce = workload.Nonce(time.Now())
	}
	req.Prompt = workload.Pad(req.Prompt, req.InputTokens, nonce)
	return req, tokens.Count(req.Prompt)
}

// spinBefore is how long before a start instant waitUntil stops sleeping
// and polls the clock: a timer may fire a scheduler tick late, the poll
// releases within microseconds of the instant.
const spinBefore = 2 * time.Millisecond

// waitUntil returns at the wall-clock instant at (at once when it is past),
// or as soon as ctx ends: the streams then end at once with the
// cancellation, as in any cancelled race.
func waitUntil(ctx context.Context, at time.Time) {
	if d := time.Until(at) - spinBefore; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
	for time.Now().Before(at) && ctx.Err() == nil {
		runtime.Gosched()
	}
}
