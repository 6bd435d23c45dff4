package probes

import (
	"fmt"
	"strings"
)

// Failure kinds, from the first moment a stream can fail to the last.
const (
	KindNetwork   = "network"   // could not connect, or the connection broke
	KindHTTP      = "http"      // the server answered with an error status
	KindProtocol  = "protocol"  // the body was not a valid event stream
	KindStream    = "stream"    // the server sent an error inside the stream
	KindTimeout   = "timeout"   // a limit of config.Timeouts cut the stream
	KindCancelled = "cancelled" // the user stopped the race
)

// Failure is why a stream did not complete: short, specific, and safe to
// show (redact has removed the API key from every field).
type Failure struct {
	Kind       string
	Status     int    // HTTP status (or the status_code an in-stream error names)
	Code       string // provider's error code, e.g. "invalid_api_key"
	Message    string // provider's or tpsrace's words
	RetryAfter string // Retry-After header of a 429/503, as sent
	Hint       string // what the user can do, e.g. "check GROQ_API_KEY"
}

func (f *Failure) Error() string {
	var b strings.Builder
	if f.Status != 0 {
		fmt.Fprintf(&b, "%d ", f.Status)
	}
	if f.Code != "" && !strings.Contains(f.Message, f.Code) {
		b.WriteString(f.Code + ": ")
	}
	b.WriteString(f.Message)
	if f.RetryAfter != "" {
		b.WriteString(" (retry after " + f.RetryAfter + ")")
	}
	if f.Hint != "" {
		b.WriteString(" — " + f.Hint)
	}
	return strings.TrimSpace(b.String())
}

// redact removes every secret from the failure's text: the key itself, and
// anything that looks like a bearer token, in case a server echoed headers.
func (f *Failure) redact(secrets ...string) {
	for _, field := range []*string{&f.Message, &f.Code, &f.Hint} {
		*field = Redact(*field, secrets...)
	}
}

// Redact replaces each non-empty secret in s, and any "Bearer <token>", with
// [REDACTED].
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[REDACTED]")
		}
	}
	for _, prefix := range []string{"Bearer ", "bearer "} {
		for i := 0; ; {
			j := strings.Index(s[i:], prefix)
			if j < 0 {
				break
			}
			start := i + j + len(prefix)
			end := start
			for end < len(s) && !strings.ContainsRune(" \t\r\n\"',;[]{}", rune(s[end])) {
				end++
			}
			if end > start && !strings.HasPrefix(s[start:], "[REDACTED]") {
				s = s[:start] + "[REDACTED]" + s[end:]
			}
			i = start
		}
	}
	return s
}
