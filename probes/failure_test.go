package probes

import (
	"strings"
	"testing"

	"tpsrace/config"
)

func TestRedact(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	for in, want := range map[string]string{
		"bad key " + key + " here":                  "bad key [REDACTED] here",
		`{"Authorization":"Bearer ` + key + `"}`:    `{"Authorization":"Bearer [REDACTED]"}`,
		"Authorization: [Bearer other-token-value]": "Authorization: [Bearer [REDACTED]]",
		"already Bearer [REDACTED] safe":            "already Bearer [REDACTED] safe",
		"no secrets":                                "no secrets",
	} {
		if got := Redact(in, key); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRefusedConnectionSaysWhere(t *testing.T) {
	res := raceOne(t, config.Provider{BaseURL: "http://user:hunter2@127.0.0.1:1/v1"})
	msg := res.Err.Error()
	if !strings.Contains(msg, "connection refused") || !strings.Contains(msg, "127.0.0.1:1") || strings.Contains(msg, "hunter2") {
		t.Errorf("error %q: want refused, the redacted address, and no password", msg)
	}
}

// A host name that does not resolve says so, with the name, not Go's
// "Post …: dial tcp: lookup … on 10.0.0.53:53" (a name with an empty
// label fails without any query: no network is touched).
func TestUnresolvedHostSaysWhich(t *testing.T) {
	res := raceOne(t, config.Provider{BaseURL: "http://api..example/v1"})
	f, ok := res.Err.(*Failure)
	if !ok || f.Kind != KindNetwork || !strings.HasPrefix(f.Message, "could not look up api..example: ") ||
		!strings.Contains(f.Hint, "host name") || strings.Contains(f.Error(), "dial tcp") {
		t.Errorf("err = %#v, want a network failure naming the host that did not resolve", res.Err)
	}
}

func TestHTMLBodyWithStatus200(t *testing.T) {
	res := raceOne(t, config.Provider{BaseURL: replay(t, 0, []byte("<!DOCTYPE html>\n<html><body>Sign in</body></html>\n"))})
	if res.Err == nil || !strings.Contains(res.Err.Error(), "not an event stream") || !strings.Contains(res.Err.Error(), "DOCTYPE") {
		t.Errorf("err = %v, want 'not an event stream' quoting the body", res.Err)
	}
}

// A 3xx that the HTTP client does not follow (no Location) carries no
// stream: it is an HTTP failure with the body's reason, never a stream read
// from nothing.
func TestUnfollowedRedirectIsAnHTTPFailure(t *testing.T) {
	res := raceOne(t, config.Provider{BaseURL: replay(t, 302, []byte(`{"error":{"message":"moved elsewhere","type":"invalid_request_error"}}`))})
	f, ok := res.Err.(*Failure)
	if !ok || f.Kind != KindHTTP || f.Status != 302 || f.Message != "moved elsewhere" {
		t.Fatalf("err %#v, want an http failure 302 \"moved elsewhere\"", res.Err)
	}
}
