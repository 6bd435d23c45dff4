package probes

import (
	"bytes"
	"cmp"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"tpsrace/config"
	"tpsrace/safetext"

	openai "github.com/sashabaranov/go-openai"
)

// Failure kinds, from the first moment a stream can fail to the last.
const (
	KindNetwork   = "network"   // could not connect, or the connection broke
	KindHTTP      = "http"      // the server answered with an error status
	KindProtocol  = "protocol"  // the body was not a valid event stream
	KindStream    = "stream"    // the server sent an error inside the stream
	KindTimeout   = "timeout"   // a limit of config.Timeouts cut the stream
	KindCancelled = "cancelled" // the user stopped the race
	// KindTruncated is no probe's: a stream a broken recording lost, which
	// the replay of the race shows as lost (package recording).
	KindTruncated = "truncated"
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

// httpFailure is the Failure of an error status whose body go-openai could
// not read as {"error":{"message":…}}: the reason is found in whatever shape
// the server sent (see errorReason); an HTML page is quoted as a snippet.
func httpFailure(status int, body []byte) *Failure {
	f := &Failure{Kind: KindHTTP, Status: status}
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		f.Message = http.StatusText(status) + " (empty body)"
	case isHTML(trimmed):
		f.Message = http.StatusText(status) + ", body " + snippet(trimmed)
	default:
		var v any
		if json.Unmarshal(trimmed, &v) != nil {
			f.Message = plainText(trimmed)
		} else {
			f.Message, f.Code = errorReason(v)
		}
		if strings.TrimSpace(safetext.Line(f.Message)) == "" { // no reason, or none a terminal shows
			f.Message = http.StatusText(status) + ", body " + snippet(trimmed)
		}
	}
	f.Code = codeUnlessStatus(f.Code, status)
	return f
}

// notAStream is the Failure of a 200 whose body has no line of an event
// stream: a JSON error is read as an error status's body is (errorReason),
// a whole answer (a server that ignored "stream": true) is said to be one,
// and anything else is quoted.
func notAStream(body []byte) *Failure {
	f := &Failure{Kind: KindProtocol, Message: "response is not an event stream: " + snippet(bytes.TrimSpace(body))}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return f
	}
	if answer, ok := v.(map[string]any); ok && answer["choices"] != nil {
		f.Message = `the whole answer came at once, not as a stream: the server ignored "stream": true`
	} else if m, code := errorReason(v); strings.TrimSpace(safetext.Line(m)) != "" {
		f.Message, f.Code = "an error instead of a stream: "+m, code
	}
	return f
}

// errorReason finds the message and code of an error in any JSON shape
// providers and the servers in front of them send:
//   - a string: {"error":"Invalid username or password."}
//   - an object with message, msg, detail or description, and code, type or
//     status: {"error":{"message":…,"type":…,"code":…}} (OpenAI), {"message":…}
//     at the top level (vLLM, Mistral), {"error":{"code":"x"}} with no message
//   - a nested error or detail: {"detail":"Not Found"}, FastAPI's
//     {"detail":[{"loc":["body","model"],"msg":"Field required"}]}
//   - an array of any of these: [{"error":{…}}] (Gemini), {"errors":[…]} (Cloudflare)
//
// The message falls back to the code or type, so a reason is never empty
// when the body holds any.
func errorReason(v any) (message, code string) {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v), ""
	case []any:
		var msgs []string
		for _, item := range v {
			if m, c := errorReason(item); m != "" {
				msgs = append(msgs, m)
				code = cmp.Or(code, c)
			}
		}
		return strings.Join(slices.Compact(msgs), "; "), code
	case map[string]any:
		for _, key := range []string{"error", "errors", "detail"} {
			if inner, ok := v[key]; ok {
				if m, c := errorReason(inner); m != "" {
					return m, cmp.Or(c, scalar(v["code"]), scalar(v["type"]))
				}
			}
		}
		code = cmp.Or(scalar(v["code"]), scalar(v["type"]), scalar(v["status"]))
		for _, key := range []string{"message", "msg", "description", "error_description", "title"} {
			if m, _ := errorReason(v[key]); m != "" {
				if loc := location(v["loc"]); loc != "" {
					m = loc + ": " + m // FastAPI: where in the request body the problem is
				}
				return m, code
			}
		}
		return code, code
	}
	return "", ""
}

// scalar is a JSON string or number as text ("" for anything else).
func scalar(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// location is FastAPI's loc path (["body","messages",0]) as "body.messages.0".
func location(v any) string {
	parts, _ := v.([]any)
	var s []string
	for _, p := range parts {
		if x := scalar(p); x != "" {
			s = append(s, x)
		}
	}
	return strings.Join(s, ".")
}

// codeUnlessStatus drops a code that only repeats the HTTP status (or is 0).
func codeUnlessStatus(code string, status int) string {
	if code == "0" || code == strconv.Itoa(status) {
		return ""
	}
	return code
}

func isHTML(body []byte) bool {
	return len(body) > 0 && body[0] == '<'
}

// plainText is a text body as a one-line reason, shortened.
func plainText(body []byte) string {
	const limit = 200
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "?")), " ")
	if len(s) > limit {
		s = strings.ToValidUTF8(s[:limit], "") + "…"
	}
	return s
}

// withReason gives f a message when the server sent none, so no failure is
// ever shown without a reason.
func (f *Failure) withReason() *Failure {
	if strings.TrimSpace(f.Message) != "" {
		return f
	}
	switch {
	case f.Code != "":
		f.Message = f.Code
	case f.Status != 0:
		f.Message = http.StatusText(f.Status)
	}
	if strings.TrimSpace(f.Message) == "" {
		f.Message = f.Kind + " failure (the server gave no reason)"
	}
	return f
}

// failure turns any error of an attempt into a Failure. A limit or the user
// cancelling reaches the reader as a plain I/O error; the context's cause
// says which it was.
func (pb *probe) failure(ctx context.Context, err error, res *Result, retryAfter string) *Failure {
	if cause := context.Cause(ctx); cause != nil {
		var f *Failure
		var stall stallCause
		switch {
		case errors.As(cause, &stall):
			return &Failure{Kind: KindTimeout, Message: fmt.Sprintf("stalled %s after %s", stall.quiet, carried(res))}
		case errors.As(cause, &f):
			return f
		}
		return &Failure{Kind: KindCancelled, Message: "cancelled after " + carried(res)}
	}
	var f *Failure
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var dnsErr *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var wrongHost x509.HostnameError
	reset := streamReset(err)
	switch {
	case errors.As(err, &f):
	case errors.As(err, &reqErr):
		// Before apiErr: go-openai wraps an empty APIError in it when
		// the body is not {"error":{"message":…}}.
		f = httpFailure(reqErr.HTTPStatusCode, reqErr.Body)
	case errors.As(err, &apiErr):
		f = &Failure{Kind: KindHTTP, Status: apiErr.HTTPStatusCode, Message: apiErr.Message}
		if apiErr.Code != nil {
			f.Code = codeUnlessStatus(fmt.Sprint(apiErr.Code), apiErr.HTTPStatusCode)
		}
		if f.Message == "" { // {"error":{"message":"","type":"…"}}
			f.Message = apiErr.Type
		}
	case errors.Is(err, syscall.ECONNREFUSED):
		f = &Failure{Kind: KindNetwork, Message: "connection refused", Hint: "is the server at " + config.RedactURL(pb.provider.BaseURL) + " running?"}
	case errors.As(err, &dnsErr):
		// Go's own words name the resolver's address and the request:
		// `Post "https://…": dial tcp: lookup api.x.ai on 10.0.0.53:53: no such host`.
		f = &Failure{Kind: KindNetwork, Message: "could not look up " + dnsErr.Name + ": " + dnsErr.Err,
			Hint: "is the host name in " + config.RedactURL(pb.provider.BaseURL) + " right, and is there a network?"}
	case errors.As(err, &unknownCA):
		f = &Failure{Kind: KindNetwork, Message: "the server's TLS certificate is signed by an authority this machine does not trust",
			Hint: "for a server with its own CA or a self-signed certificate, run with SSL_CERT_FILE=that CA's PEM file"}
	case errors.As(err, &wrongHost):
		// "x509: certificate is valid for example.com, not localhost"
		f = &Failure{Kind: KindNetwork, Message: "the server's TLS certificate " + strings.TrimPrefix(wrongHost.Error(), "x509: certificate "),
			Hint: "is the host name in " + config.RedactURL(pb.provider.BaseURL) + " the one its certificate names?"}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		f = &Failure{Kind: KindNetwork, Message: "connection closed mid-stream after " + carried(res)}
	case reset != "":
		f = &Failure{Kind: KindNetwork, Message: "the server reset the stream (HTTP/2 " + reset + ") after " + carried(res)}
	default:
		var netErr net.Error
		f = &Failure{Kind: KindNetwork, Message: err.Error()}
		if !errors.As(err, &netErr) && res.Phases.FirstByte == 0 {
			f.Kind = KindProtocol
		}
	}
	if f.Kind == KindHTTP {
		f.RetryAfter = retryAfter
		f.Hint = hint(pb.provider, f.Status)
	}
	return f.withReason()
}

// streamReset is the error code of an HTTP/2 stream the server reset
// (RST_STREAM: a front end dropping one request mid-answer, as HTTP/1.1
// drops the connection), "" for any other error. net/http's HTTP/2 error
// type is unexported; its text is "stream error: stream ID 3;
// INTERNAL_ERROR; received from peer".
func streamReset(err error) string {
	_, rest, ok := strings.Cut(err.Error(), "stream error: stream ID ")
	if !ok {
		return ""
	}
	parts := strings.Split(rest, "; ")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// carried is what a stream had brought when it broke: "598 tokens", for a
// tool call "10 tool-call deltas" (its arguments are no text), or both.
func carried(res *Result) string {
	text := fmt.Sprintf("%d tokens", res.Events.TokensBefore(res.Events.Len()))
	deltas := fmt.Sprintf("%d tool-call deltas", len(res.ToolDeltas))
	if len(res.ToolDeltas) == 1 {
		deltas = "1 tool-call delta"
	}
	switch {
	case len(res.ToolDeltas) == 0:
		return text
	case res.Events.Len() == 0:
		return deltas
	}
	return text + " and " + deltas
}

// urlSecret is the user:password part of a URL, to be redacted from errors.
func urlSecret(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	return u.User.String()
}

// hint says what the user can do about an HTTP error.
func hint(p config.Provider, status int) string {
	key := "api_key in " + p.Where
	if p.KeyVar != "" {
		key = p.KeyVar
	}
	switch status {
	case 401, 403:
		return "check " + key
	case 404:
		return fmt.Sprintf("check the model name %q and base_url", p.Model)
	case 429:
		return "rate limited: wait, or lower --concurrency"
	}
	return ""
}

// statusError is the error of an error status, as go-openai's client makes
// it (failure reads it): an *openai.APIError when the body is
// {"error":{…}}, else an *openai.RequestError with the body.
func statusError(status string, code int, r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("error, reading response body: %w", err)
	}
	var errRes openai.ErrorResponse
	err = json.Unmarshal(body, &errRes)
	if err != nil || errRes.Error == nil {
		reqErr := &openai.RequestError{HTTPStatus: status, HTTPStatusCode: code, Err: err, Body: body}
		if errRes.Error != nil {
			reqErr.Err = errRes.Error
		}
		return reqErr
	}
	errRes.Error.HTTPStatus = status
	errRes.Error.HTTPStatusCode = code
	return errRes.Error
}
