package sim

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tpsrace/tokens"
)

func TestURL(t *testing.T) {
	s := startServer(t, Options{})
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/v1") {
		t.Errorf("URL() = %q", s.URL())
	}
	status, body := get(t, s, "/v1/models")
	var list struct {
		Data []struct{ ID string }
	}
	if err := json.Unmarshal([]byte(body), &list); status != 200 || err != nil || len(list.Data) != 4 || list.Data[0].ID != "sim:gpu" {
		t.Errorf("/v1/models: %d %s", status, body)
	}
}

func TestHealthWhileLoading(t *testing.T) {
	const load = 400 * time.Millisecond
	started := time.Now()
	s := startServer(t, Options{LoadTime: load})
	status, body := get(t, s, "/health")
	if time.Since(started) < load {
		if status != 503 || body != `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}` {
			t.Errorf("/health while loading: %d %s", status, body)
		}
		resp, _ := post(t, context.Background(), s, chatBody("sim:", nil))
		resp.Body.Close()
		if resp.StatusCode != 503 && time.Since(started) < load {
			t.Errorf("chat while loading: %d", resp.StatusCode)
		}
	}
	time.Sleep(time.Until(started.Add(load)))
	if status, body := get(t, s, "/health"); status != 200 || body != `{"status":"ok"}` {
		t.Errorf("/health after loading: %d %s", status, body)
	}
}

func TestProps(t *testing.T) {
	s := startServer(t, Options{Slots: 3})
	status, body := get(t, s, "/props")
	var props struct {
		TotalSlots int    `json:"total_slots"`
		ModelPath  string `json:"model_path"`
		ModelAlias string `json:"model_alias"`
		BuildInfo  string `json:"build_info"`
		Settings   struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if err := json.Unmarshal([]byte(body), &props); status != 200 || err != nil {
		t.Fatalf("/props: %d %s %v", status, body, err)
	}
	if props.TotalSlots != 3 || props.ModelPath == "" || props.ModelAlias == "" || props.BuildInfo == "" || props.Settings.NCtx <= 0 {
		t.Errorf("/props %+v", props)
	}
}

func TestMetricsCountWhatWasServed(t *testing.T) {
	s := startServer(t, Options{})
	if m := metrics(t, s); m["prompt_tokens_total"] != 0 || m["tokens_predicted_total"] != 0 || len(m) != 6 {
		t.Errorf("fresh metrics %v", m)
	}
	streamLines(t, s, chatBody("sim:ttft=20ms,tps=1000,tokens=5", nil))
	streamLines(t, s, chatBody("sim:ttft=20ms,tps=1000,tokens=5,fault=error,after=2", nil))
	m := metrics(t, s)
	prompt := float64(tokens.Count("Say something."))
	if m["prompt_tokens_total"] != 2*prompt || m["tokens_predicted_total"] != 7 || m["requests_processing"] != 0 || m["requests_deferred"] != 0 {
		t.Errorf("metrics %v, want %g prompt and 7 predicted tokens", m, 2*prompt)
	}
	if m["prompt_seconds_total"] < 0.04 || m["tokens_predicted_seconds_total"] <= 0 {
		t.Errorf("metrics seconds %v", m)
	}
}

// openStream starts a streamed request and reads its response headers.
func openStream(t *testing.T, s *Server, model string) (*bufio.Reader, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resp, _ := post(t, ctx, s, chatBody(model, nil))
	t.Cleanup(func() { resp.Body.Close() })
	return bufio.NewReader(resp.Body), cancel
}

func TestSlotsQueue(t *testing.T) {
	s := startServer(t, Options{Slots: 1})
	// The stalled stream holds the only slot as long as its client stays.
	_, cancelHolder := openStream(t, s, "sim:ttft=0s,fault=stall")

	queued := make(chan []line)
	go func() {
		resp, sent := post(t, context.Background(), s, chatBody("sim:ttft=0s,tps=1000,tokens=3", nil))
		lines, _ := readLines(resp, sent)
		queued <- lines
	}()
	eventually(t, "the second request to queue", func() bool {
		m := metrics(t, s)
		return m["requests_deferred"] == 1 && m["requests_processing"] == 1
	})
	select {
	case <-queued:
		t.Fatal("the queued request was answered while the slot was taken")
	case <-time.After(100 * time.Millisecond):
	}
	cancelHolder()
	if content, _ := joined(events(t, <-queued)); content != text(0, 3) {
		t.Errorf("queued request got %q", content)
	}
	if m := metrics(t, s); m["requests_deferred"] != 0 || m["requests_processing"] != 0 {
		t.Errorf("metrics after %v", m)
	}
}

func TestQueuedClientLeaving(t *testing.T) {
	s := startServer(t, Options{Slots: 1})
	_, cancelHolder := openStream(t, s, "sim:fault=stall")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(`{"model":"sim:","stream":true}`))
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	eventually(t, "the request to queue", func() bool { return metrics(t, s)["requests_deferred"] == 1 })
	cancel()
	<-done
	eventually(t, "the queue to empty", func() bool { return metrics(t, s)["requests_deferred"] == 0 })
	cancelHolder()
}

func TestCloseEndsStreamsInFlight(t *testing.T) {
	s, err := Start("127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	stalled, _ := openStream(t, s, "sim:ttft=0s,fault=stall")
	endless, _ := openStream(t, s, "sim:ttft=0s,tps=1000,fault=endless")
	readUntil(t, stalled, func(l string) bool { return strings.HasPrefix(l, "data:") })
	readUntil(t, endless, func(l string) bool { return strings.Contains(l, `"content":" `) })

	closed := make(chan error)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	for _, r := range []*bufio.Reader{stalled, endless} {
		if _, err := io.Copy(io.Discard, r); err == nil {
			t.Error("a stream ended cleanly though the server closed mid-stream")
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestAcceptDelay(t *testing.T) {
	const delay = 300 * time.Millisecond
	s := startServer(t, Options{AcceptDelay: delay})
	start := time.Now()
	if status, _ := get(t, s, "/health"); status != 200 {
		t.Errorf("/health %d", status)
	}
	if elapsed := time.Since(start); elapsed < delay {
		t.Errorf("answered after %v, before the %v accept delay", elapsed, delay)
	}
}

// With contention=1 a second stream of the same model doubles every gap.
func TestContentionSlowsConcurrentStreams(t *testing.T) {
	s := startServer(t, Options{})
	const model = "sim:ttft=0s,tps=100,tokens=1000,contention=1"
	long, _ := openStream(t, s, model) // runs for 10 s unless cancelled
	readUntil(t, long, func(l string) bool { return strings.Contains(l, `"content":" `) })

	resp, sent := post(t, context.Background(), s, chatBody(model, request{"max_tokens": 20}))
	lines, err := readLines(resp, sent)
	if err != nil {
		t.Fatal(err)
	}
	// Alone: 19 gaps of 10 ms. Shared by two streams: 20 ms each.
	texts := textEvents(events(t, lines))
	if len(texts) != 20 || texts[19].at < 380*time.Millisecond {
		t.Errorf("%d events, last at %v: want 20, no earlier than 380ms", len(texts), texts[len(texts)-1].at)
	}
}

// NewHandler works on its own, in any server; a client leaving ends its request.
func TestNewHandlerAlone(t *testing.T) {
	h := NewHandler(Options{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(`{"model":"sim:ttft=0s,fault=stall","stream":true}`))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	readUntil(t, bufio.NewReader(resp.Body), func(l string) bool { return strings.HasPrefix(l, "data:") })
	cancel()
	stats := &h.(*handler).stats
	eventually(t, "the stalled request to end", func() bool { return stats.processing.Load() == 0 })
}
