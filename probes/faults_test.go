package probes_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// canary is an API key that must never appear in any output.
const canary = "sk-canary-3f9a1c7e5b2d4a6f8e0c"

// Every fault the simulator injects is a result, not a crash: the run fails
// with a short, specific reason, keeps what it measured, and the provider
// racing beside it finishes untouched.
func TestFaultsAreResults(t *testing.T) {
	url := startSim(t)
	fast := config.Timeouts{Connect: 2 * time.Second, FirstToken: 2 * time.Second, Stall: 300 * time.Millisecond, Total: 3 * time.Second}
	for _, tc := range []struct {
		fault    string
		kind     string
		contains []string
		tokens   int // text tokens the failed run must still have recorded
	}{
		{"fault=401", probes.KindHTTP, []string{"401", "check TEST_API_KEY"}, 0},
		{"fault=403", probes.KindHTTP, []string{"403", "check TEST_API_KEY"}, 0},
		{"fault=404", probes.KindHTTP, []string{"404", "check the model name"}, 0},
		{"fault=429,retry_after=7", probes.KindHTTP, []string{"429", "retry after 7"}, 0},
		{"fault=429", probes.KindHTTP, []string{"429", "rate limited"}, 0},
		{"fault=500", probes.KindHTTP, []string{"500"}, 0},
		{"fault=503", probes.KindHTTP, []string{"503"}, 0},
		{"fault=html", probes.KindHTTP, []string{"502", "<html"}, 0},
		{"fault=body-200", probes.KindProtocol, []string{"an error instead of a stream: Upstream overloaded (simulated)."}, 0},
		{"fault=body-whole", probes.KindProtocol, []string{`the server ignored "stream": true`}, 0},
		{"fault=error,after=10", probes.KindStream, []string{"500"}, 10},
		{"fault=event-error,after=10", probes.KindStream, []string{"tool_use_failed"}, 10},
		{"fault=close,after=10", probes.KindNetwork, []string{"mid-stream after 10 tokens"}, 10},
		// Four tokens an event: the message counts tokens, not events.
		{"fault=close,after=12,chunk=4", probes.KindNetwork, []string{"mid-stream after 12 tokens"}, 12},
		{"fault=stall,after=12,chunk=4", probes.KindTimeout, []string{"stalled 300ms after 12 tokens"}, 12},
		{"fault=stall,after=10", probes.KindTimeout, []string{"stalled 300ms after 10 tokens"}, 10},
		// Compressed by a proxy: the same faults, read through the decompressor.
		{"fault=close,after=10,gzip=1", probes.KindNetwork, []string{"mid-stream after 10 tokens"}, 10},
		{"fault=stall,after=10,gzip=1", probes.KindTimeout, []string{"stalled 300ms after 10 tokens"}, 10},
		{"fault=nobody,gzip=1", probes.KindTimeout, []string{"stalled 300ms after 0 tokens"}, 0},
		{"fault=nobody", probes.KindTimeout, []string{"stalled 300ms after 0 tokens"}, 0},
		{"fault=endless", probes.KindTimeout, []string{"total time limit 3s"}, 0},
		{"fault=badjson,after=10", probes.KindProtocol, []string{"malformed event"}, 10},
		{"fault=echo", probes.KindHTTP, []string{"401"}, 0},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			bad := config.Provider{Name: "bad", Model: "sim:ttft=10ms,tps=500,tokens=40," + tc.fault, BaseURL: url,
				APIKey: canary, KeyVar: "TEST_API_KEY", Timeout: fast}
			// The good provider's limits are not under test: a loaded box
			// (a CI run at load 7) paused its stream past the bad one's
			// 300 ms stall limit once.
			good := config.Provider{Name: "good", Model: "sim:ttft=10ms,tps=500,tokens=40", BaseURL: url, Timeout: config.DefaultTimeouts}
			results := probes.Race{Providers: []config.Provider{bad, good}, Request: probes.Request{Prompt: "hi", MaxTokens: 1000}}.Run(context.Background(), nil)
			failed, ok := results[0][0], results[1][0]
			if ok.Err != nil {
				t.Fatalf("the good provider failed beside the bad one: %v", ok.Err)
			}
			var f *probes.Failure
			if failed.Err == nil {
				t.Fatal("the faulty provider did not fail")
			}
			f = failed.Err.(*probes.Failure)
			msg := failed.Err.Error()
			if f.Kind != tc.kind {
				t.Errorf("kind %q, want %q (%s)", f.Kind, tc.kind, msg)
			}
			for _, want := range tc.contains {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not say %q", msg, want)
				}
			}
			if strings.Contains(msg, canary) {
				t.Errorf("error shows the API key: %q", msg)
			}
			if got := metrics.Compute(&failed, 0).O200kTokens; tc.tokens > 0 && got != tc.tokens {
				t.Errorf("kept %d tokens of the partial answer, want %d", got, tc.tokens)
			}
		})
	}
}

// A stream the user cancels says how many tokens it had delivered: the count
// the lane shows, not the number of events (three tokens an event here).
func TestCancelledCountsTokens(t *testing.T) {
	url := startSim(t)
	p := config.Provider{Name: "slow", Model: "sim:ttft=5ms,tps=30,tokens=300,chunk=3", BaseURL: url}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan probes.Update)
	done := make(chan probes.Result)
	go func() {
		done <- probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 300}}.Run(ctx, updates)[0][0]
	}()
	shared := (<-updates).Shared // the stream's record, before the release
	for {
		if _, two := shared.ViewAfter(1); two {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	for u := range updates {
		if u.Done != nil {
			break
		}
	}
	res := <-done
	delivered := res.Events.TokensBefore(res.Events.Len())
	if res.Events.Len() < 2 || delivered != 3*res.Events.Len() {
		t.Fatalf("%d events of %d tokens, want 2 or more of 3 tokens each", res.Events.Len(), delivered)
	}
	if want := fmt.Sprintf("cancelled after %d tokens", delivered); res.Err == nil || !strings.Contains(res.Err.Error(), want) {
		t.Errorf("err %v, want %q", res.Err, want)
	}
}

func TestBigChunkIsMeasured(t *testing.T) {
	url := startSim(t)
	p := config.Provider{Name: "big", Model: "sim:ttft=5ms,tps=1000,tokens=20,fault=bigchunk,after=5", BaseURL: url}
	res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 1000}}.Run(context.Background(), nil)[0][0]
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if f := metrics.Compute(&res, 0); f.ContentChars < 1<<20 {
		t.Errorf("content %d chars, want the >1 MiB event", f.ContentChars)
	}
}

func TestSlowAcceptHitsConnectLimit(t *testing.T) {
	srv := simtest.Start(t, sim.Options{AcceptDelay: 2 * time.Second})
	p := config.Provider{Name: "slow", Model: "sim:tokens=5", BaseURL: srv.URL(), Timeout: config.Timeouts{Connect: 200 * time.Millisecond}}
	res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 10}}.Run(context.Background(), nil)[0][0]
	if res.Err == nil || !strings.Contains(res.Err.Error(), "connect limit") {
		t.Fatalf("err = %v, want the connect limit", res.Err)
	}
}

// A retry may only happen before the first byte of a stream, and is recorded.
func TestRetryBeforeFirstByte(t *testing.T) {
	var calls atomic.Int32
	stream := []byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" hello\"}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" world\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(stream)
	}))
	defer front.Close()
	p := config.Provider{Name: "flaky", Model: "m", BaseURL: front.URL + "/v1"}
	race := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 100}, Retries: 2}
	res := race.Run(context.Background(), nil)[0][0]
	if res.Err != nil || res.Retries != 2 {
		t.Fatalf("err %v after %d retries, want success after 2", res.Err, res.Retries)
	}
	calls.Store(0)
	race.Retries = 1
	if res := race.Run(context.Background(), nil)[0][0]; res.Err == nil || res.Retries != 1 {
		t.Fatalf("err %v after %d retries, want the 503 after 1 retry", res.Err, res.Retries)
	}
}

// Cancelling the race ends every stream at once, keeping what was measured.
func TestCancelEndsEveryStream(t *testing.T) {
	url := startSim(t)
	var ps []config.Provider
	for _, name := range []string{"a", "b", "c"} {
		ps = append(ps, config.Provider{Name: name, Model: "sim:ttft=5ms,tps=100,fault=endless", BaseURL: url})
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	results := probes.Race{Providers: ps, Request: probes.Request{Prompt: "hi", MaxTokens: 100}, Concurrency: 4}.Run(ctx, nil)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("cancel took %v to end the race", took)
	}
	for _, streams := range results {
		for _, r := range streams {
			if !r.Interrupted || r.Events.Len() == 0 {
				t.Errorf("%s/%d: interrupted %v with %d events, want interrupted with its partial answer", r.Provider, r.Stream, r.Interrupted, r.Events.Len())
			}
		}
	}
}

// No goroutine outlives a race: not a probe, a timer, or a connection.
func TestNoGoroutineOutlivesARace(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) }) // registered first, so it runs once the simulator has closed
	srv := simtest.Start(t, sim.Options{})
	timeouts := config.Timeouts{Stall: 200 * time.Millisecond, Total: 2 * time.Second}
	var ps []config.Provider
	for _, fault := range []string{"", "fault=close,after=3", "fault=stall,after=3", "fault=500", "fault=endless"} {
		ps = append(ps, config.Provider{Name: fault, Model: "sim:ttft=5ms,tps=300,tokens=20," + fault, BaseURL: srv.URL(), Timeout: timeouts})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	probes.Race{Providers: ps, Request: probes.Request{Prompt: "hi", MaxTokens: 100}, Concurrency: 3}.Run(ctx, nil)
}

// A race waiting for its --start-at instant ends at once when cancelled:
// quitting the dashboard an hour before the instant does not wait the hour.
func TestCancelEndsTheWaitForTheStartInstant(t *testing.T) {
	url := startSim(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	race := probes.Race{Providers: []config.Provider{{Name: "a", Model: "sim:tokens=5", BaseURL: url}},
		Request: probes.Request{Prompt: "hi", MaxTokens: 5}, StartAt: time.Now().Add(time.Hour)}
	done := make(chan [][]probes.Result)
	go func() { done <- race.Run(ctx, nil) }()
	select {
	case results := <-done:
		if r := results[0][0]; !r.Interrupted {
			t.Errorf("the stream ended %+v, want interrupted", r)
		}
	case <-time.After(time.Minute):
		t.Fatal("the race waited for its start instant after being cancelled")
	}
}
