package sim

import (
	"io"
	"net/http"
)

// errorBody is an error answer in one of the shapes real providers, and the
// proxies in front of them, send instead of OpenAI's {"error":{"message":…}}.
type errorBody struct {
	status      int
	contentType string
	body        string
}

// errorBodies are the fault=body-… faults, answered before any stream; the
// last two come with 200, where a stream was due.
var errorBodies = map[string]errorBody{
	// A bare string (basic-auth proxies, some gateways).
	"body-string": {401, "application/json", `{"error":"Invalid username or password."}`},
	// An error object with a code and a type but no message.
	"body-nomessage": {400, "application/json", `{"error":{"type":"invalid_request_error","code":"context_length_exceeded"}}`},
	// vLLM and Mistral: the error's fields at the top level.
	"body-toplevel": {404, "application/json", `{"object":"error","message":"The model ` + "`x`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`},
	// FastAPI: a string detail, and a validation detail listing where.
	"body-detail":      {404, "application/json", `{"detail":"Not Found"}`},
	"body-detail-list": {422, "application/json", `{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required","input":null}]}`},
	// Gemini's OpenAI-compatible endpoint: an array of errors.
	"body-array": {429, "application/json", `[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]`},
	// Cloudflare: an errors list.
	"body-errors": {403, "application/json", `{"success":false,"errors":[{"code":10000,"message":"Authentication error"}]}`},
	// A proxy's plain text.
	"body-text":  {503, "text/plain", "upstream connect error or disconnect/reset before headers. reset reason: connection failure\n"},
	"body-empty": {500, "application/json", ""},
	// Hostile text: escape sequences that retitle and clear a terminal (and a
	// C1 CSI), and a spreadsheet formula, for tests that tpsrace prints text.
	"body-hostile": {401, "application/json", `{"error":{"message":"bad key \u001b]0;PWNED\u0007 \u001b[2J\u009b31m red","code":"invalid_api_key"}}`},
	// Hostile markup: HTML that runs a script, a javascript: link, a
	// Markdown image and table-breaking pipes and newlines, for tests that
	// Markdown and HTML show a provider's text and never render it.
	"body-markup":  {401, "application/json", `{"error":{"message":"bad key <img src=x onerror=\"document.title='PWNED'\"><script>document.title='PWNED'</script> [docs](javascript:alert(1)) ![p](http://127.0.0.1:9/p.png) a | b\n# not a heading *nor bold* _nor em_","code":"invalid_api_key"}}`},
	"body-formula": {400, "application/json", `{"error":{"message":"=HYPERLINK(\"http://evil.example/\",\"click\")","code":"bad_request"}}`},
	// A gateway that answers its errors with 200, pretty-printed.
	"body-200": {200, "application/json", "{\n  \"error\": {\n    \"message\": \"Upstream overloaded (simulated).\",\n    \"code\": \"overloaded\"\n  }\n}\n"},
	// A server that ignores "stream": true: the whole answer in one JSON.
	"body-whole": {200, "application/json", `{"id":"chatcmpl-sim","object":"chat.completion","model":"sim","choices":[{"index":0,"message":{"role":"assistant","content":"the whole answer at once"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":5,"total_tokens":6}}`},
}

func (e errorBody) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", e.contentType)
	w.WriteHeader(e.status)
	_, _ = io.WriteString(w, e.body)
}
