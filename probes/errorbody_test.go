package probes_test

import (
	"context"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

// Every shape of error body providers send gives a specific reason, never
// an empty one.
func TestErrorBodiesGiveTheirReason(t *testing.T) {
	url := startSim(t)
	lim := config.Timeouts{Connect: 2 * time.Second, FirstToken: 2 * time.Second, Stall: time.Second, Total: 3 * time.Second}
	for _, tc := range []struct{ fault, want string }{
		{"body-string", "401 Invalid username or password. — check TEST_API_KEY"},
		{"body-nomessage", "400 context_length_exceeded"},
		{"body-toplevel", "404 The model `x` does not exist. — check the model name"},
		{"body-detail", "404 Not Found — check the model name"},
		{"body-detail-list", "422 missing: body.messages: Field required"},
		{"body-array", "429 Resource has been exhausted (e.g. check quota). — rate limited"},
		{"body-errors", "403 10000: Authentication error — check TEST_API_KEY"},
		{"body-text", "503 upstream connect error or disconnect/reset before headers. reset reason: connection failure"},
		{"body-empty", "500 Internal Server Error (empty body)"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			p := config.Provider{Name: "bad", Model: "sim:fault=" + tc.fault, BaseURL: url, KeyVar: "TEST_API_KEY", Timeout: lim}
			res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 10}}.Run(context.Background(), nil)[0][0]
			if res.Err == nil {
				t.Fatal("no failure")
			}
			msg := res.Err.Error()
			if len(msg) < len(tc.want) || msg[:len(tc.want)] != tc.want {
				t.Errorf("error %q, want it to start %q", msg, tc.want)
			}
			if f := res.Err.(*probes.Failure); f.Kind != probes.KindHTTP {
				t.Errorf("kind %q, want http", f.Kind)
			}
		})
	}
}

// The request fields config.ReservedParam names stay tpsrace's even when a
// Provider built in code sets them: the race still streams the model asked.
func TestReservedParamsAreNotOverridden(t *testing.T) {
	url := startSim(t)
	p := config.Provider{Name: "p", Model: "sim:ttft=1ms,tps=1000,tokens=5", BaseURL: url,
		Params:  map[string]any{"stream": false, "model": "gpt-4o", "messages": []any{}, "max_tokens": 3},
		Timeout: config.Timeouts{Connect: 2 * time.Second, FirstToken: 2 * time.Second, Stall: time.Second, Total: 3 * time.Second}}
	res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 10}}.Run(context.Background(), nil)[0][0]
	if res.Err != nil || res.Usage == nil || res.Usage.CompletionTokens != 3 {
		t.Errorf("err %v, usage %+v: want a stream of 3 tokens (max_tokens from params, the rest reserved)", res.Err, res.Usage)
	}
}
