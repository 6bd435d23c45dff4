package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"tpsrace/tokens"
)

// Options set up the simulated server as a whole; everything per request
// comes from the model name.
type Options struct {
	// LoadTime emulates llama-server loading its model: for this long after
	// start /health and chat requests answer 503 "Loading model".
	LoadTime time.Duration
	// AcceptDelay (Start only) holds each new connection this long before
	// its first request is read: a slow-connect fault. The kernel completes
	// the TCP handshake at once, so the client sees it as a late response.
	AcceptDelay time.Duration
	// Slots bounds the generations running at once; others queue, as with
	// llama-server --parallel. 0 = unlimited (and /props reports 0 slots).
	Slots int
}

// handler serves every endpoint; Close of the Server ends its requests.
type handler struct {
	opts    Options
	started time.Time
	mux     *http.ServeMux
	slots   chan struct{} // nil when unlimited

	closing context.Context // cancelled by close: every request waits on it
	cancel  context.CancelFunc

	mu       sync.Mutex
	closed   bool
	inFlight sync.WaitGroup    // requests being served
	running  map[string]int    // generations running per model name, for contention
	prompts  map[[32]byte]bool // prefixcache=N: the model names and prompts seen, hashed

	requests atomic.Int64 // for completion ids
	stats    stats
}

// stats are the /metrics counters (llama-server's names).
type stats struct {
	promptTokens    atomic.Int64
	promptNanos     atomic.Int64 // receipt to first text event, summed
	predictedTokens atomic.Int64
	predictedNanos  atomic.Int64 // first to last text event, summed
	processing      atomic.Int64 // generations running
	deferred        atomic.Int64 // generations waiting for a slot
}

// NewHandler returns the simulator's endpoints; LoadTime counts from now.
func NewHandler(opts Options) http.Handler { return newHandler(opts) }

func newHandler(opts Options) *handler {
	h := &handler{opts: opts, started: time.Now(), mux: http.NewServeMux(), running: map[string]int{}}
	h.closing, h.cancel = context.WithCancel(context.Background())
	if opts.Slots > 0 {
		h.slots = make(chan struct{}, opts.Slots)
	}
	h.mux.HandleFunc("POST /v1/chat/completions", h.chat)
	h.mux.HandleFunc("GET /v1/models", h.models)
	h.mux.HandleFunc("GET /v1/models/{model...}", h.model)
	h.mux.HandleFunc("GET /health", h.health)
	h.mux.HandleFunc("GET /props", h.props)
	h.mux.HandleFunc("GET /metrics", h.metrics)
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		writeError(w, http.StatusServiceUnavailable, apiError{Message: "simulator is shutting down", Type: "server_error"})
		return
	}
	h.inFlight.Add(1)
	h.mu.Unlock()
	defer h.inFlight.Done()

	// Every wait of a request ends when the client leaves or the server closes.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(h.closing, cancel)()
	h.mux.ServeHTTP(w, r.WithContext(ctx))
}

// stop refuses new requests and ends the waits of those in flight.
func (h *handler) stop() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.cancel()
}

func (h *handler) loading() bool { return time.Since(h.started) < h.opts.LoadTime }

// loadingBody is llama-server's answer while it loads the model.
const loadingBody = `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`

func (h *handler) health(w http.ResponseWriter, r *http.Request) {
	if h.loading() {
		writeRawJSON(w, http.StatusServiceUnavailable, loadingBody)
		return
	}
	writeRawJSON(w, http.StatusOK, `{"status":"ok"}`)
}

// Props values: what a client of llama-server reads from /props.
const (
	propsModelPath = "simulated/tpsrace-sim.gguf"
	propsAlias     = "tpsrace-simulator"
	propsBuild     = "b0-tpsrace-simulator"
	propsContext   = 8192
)

func (h *handler) props(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"default_generation_settings": map[string]any{"n_ctx": propsContext},
		"total_slots":                 h.opts.Slots,
		"model_path":                  propsModelPath,
		"model_alias":                 propsAlias,
		"build_info":                  propsBuild,
	})
}

func (h *handler) metrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	s := &h.stats
	for _, m := range []struct {
		name, kind, help string
		value            float64
	}{
		{"prompt_tokens_total", "counter", "Number of prompt tokens processed.", float64(s.promptTokens.Load())},
		{"prompt_seconds_total", "counter", "Prompt process time", time.Duration(s.promptNanos.Load()).Seconds()},
		{"tokens_predicted_total", "counter", "Number of generation tokens processed.", float64(s.predictedTokens.Load())},
		{"tokens_predicted_seconds_total", "counter", "Predict process time", time.Duration(s.predictedNanos.Load()).Seconds()},
		{"requests_processing", "gauge", "Number of requests processing.", float64(s.processing.Load())},
		{"requests_deferred", "gauge", "Number of requests deferred.", float64(s.deferred.Load())},
	} {
		fmt.Fprintf(w, "# HELP llamacpp:%s %s\n# TYPE llamacpp:%s %s\nllamacpp:%s %s\n",
			m.name, m.help, m.name, m.kind, m.name, strconv.FormatFloat(m.value, 'f', -1, 64))
	}
}

// apiError is the OpenAI error object; Code is a string or a number.
type apiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

func writeError(w http.ResponseWriter, status int, e apiError) {
	writeJSON(w, status, errorEvent{e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		panic("sim: " + err.Error()) // only our own types are written
	}
	writeRawJSON(w, status, string(body))
}

func writeRawJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body)) // a client gone away is none of our business
}

// Server is a simulator listening on a real socket.
type Server struct {
	url       string
	http      *http.Server
	handler   *handler
	served    chan struct{} // closed when Serve has returned
	closeOnce sync.Once
	closeErr  error
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves in the
// background until Close.
func Start(addr string, opts Options) (*Server, error) {
	tokens.Warm() // the first request would otherwise wait ~0.5 s for the vocabulary, bending its TTFT
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	host := "127.0.0.1" // what a client can dial when the listener is on every address
	tcp := ln.Addr().(*net.TCPAddr)
	if !tcp.IP.IsUnspecified() {
		host = tcp.IP.String()
	}
	if opts.AcceptDelay > 0 {
		ln = delayListener{Listener: ln, delay: opts.AcceptDelay}
	}
	h := newHandler(opts)
	s := &Server{
		url:     "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port)) + "/v1",
		http:    &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		handler: h,
		served:  make(chan struct{}),
	}
	go func() {
		defer close(s.served)
		_ = s.http.Serve(ln) // always ErrServerClosed, after Close
	}()
	return s, nil
}

// URL is the base URL to give a provider: "http://127.0.0.1:PORT/v1".
func (s *Server) URL() string { return s.url }

// Close stops listening, ends every request in flight (held streams
// included) and returns once all of them, and the server, have stopped.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		// Connections first: streams in flight are cut (the client sees the
		// body end abruptly, not a clean end), and writes to clients that
		// stopped reading are unblocked. Then every wait is ended.
		if err := s.http.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			s.closeErr = err
		}
		s.handler.stop()
		s.handler.inFlight.Wait()
		<-s.served
	})
	return s.closeErr
}

// delayListener holds each accepted connection for delay before it is read.
type delayListener struct {
	net.Listener
	delay time.Duration
}

func (l delayListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &delayedConn{Conn: c, readable: time.Now().Add(l.delay), closed: make(chan struct{})}, nil
}

// delayedConn waits until readable (or Close) before its first Read, so
// connections accepted together are each delayed once, not one after another.
type delayedConn struct {
	net.Conn
	readable  time.Time
	waited    sync.Once
	closed    chan struct{}
	closeOnce sync.Once
}

func (c *delayedConn) Read(p []byte) (int, error) {
	c.waited.Do(func() {
		t := time.NewTimer(time.Until(c.readable))
		defer t.Stop()
		select {
		case <-t.C:
		case <-c.closed:
		}
	})
	return c.Conn.Read(p)
}

func (c *delayedConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}
