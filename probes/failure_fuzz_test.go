package probes

import (
	"strings"
	"testing"

	"tpsrace/safetext"
)

// FuzzErrorBody: whatever body comes with an error status, or inside a
// stream's error field, the failure has a non-empty reason.
func FuzzErrorBody(f *testing.F) {
	for _, body := range []string{`{}`, `[]`, `null`, `{"error":null}`, `{"error":{}}`, `"  "`, `{"detail":[]}`, `123`,
		`{"error":""}`, `{"error":{"message":"","code":null}}`, `[{"error":{"message":[]}}]`, `<html></html>`, "\x00\xff"} {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if msg := safetext.Line(httpFailure(418, []byte(body)).withReason().Error()); strings.TrimSpace(strings.TrimPrefix(msg, "418")) == "" {
			t.Fatalf("body %q: no reason in %q", body, msg)
		}
		if msg := decodeError([]byte(body)).Error(); strings.TrimSpace(msg) == "" {
			t.Fatalf("stream error %q: empty reason", body)
		}
	})
}
