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
