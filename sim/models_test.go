package sim

import (
	"strings"
	"testing"
)

// GET /v1/models/{model} knows every schedule the chat endpoint accepts,
// listed or not, and answers OpenAI's 404 for anything else.
func TestRetrieveModel(t *testing.T) {
	s := startServer(t, Options{})
	for _, tc := range []struct {
		model  string
		status int
		want   string
	}{
		{"sim:gpu", 200, `"id":"sim:gpu"`},
		{"sim:ttft=10ms,tps=100,tokens=5", 200, `"id":"sim:ttft=10ms,tps=100,tokens=5"`},
		{"sim:tps=fast", 404, `"code":"model_not_found"`},
		{"gpt-4o", 404, `not a simulated model`},
	} {
		if status, body := get(t, s, "/v1/models/"+tc.model); status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("GET /v1/models/%s: %d %s; want %d with %s", tc.model, status, body, tc.status, tc.want)
		}
	}
}
