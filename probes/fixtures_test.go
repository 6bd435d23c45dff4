package probes

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"tpsrace/config"
	"tpsrace/testenv"
	"tpsrace/tokens"
)

// fixtureWant is a row of INDEX.md.
type fixtureWant struct {
	file                      string
	status                    int // HTTP status to replay with
	content, reasoning        int // code points
	prompt, completion, total int // usage; 0 = none reported
	finish                    string
	errContains               string // the stream must fail with this
}

var fixtureWants = []fixtureWant{
	{file: "openai-gpt4o-text-usage.sse", content: 159, prompt: 14, completion: 30, total: 44, finish: "stop"},
	{file: "groq-llama33-70b-text.sse", content: 140, prompt: 45, completion: 662, total: 707, finish: "stop"},
	{file: "groq-gptoss120b-reasoning-usage.sse", content: 57, reasoning: 176, prompt: 339, completion: 58, total: 397, finish: "stop"},
	{file: "deepseek-reasoner-reasoning-content.sse", content: 11, reasoning: 109, prompt: 6, completion: 212, total: 218, finish: "stop"},
	{file: "openrouter-claude45-reasoning.sse", content: 9, reasoning: 51, prompt: 43, completion: 36, total: 79, finish: "stop"},
	{file: "cerebras-llama33-70b-time-info.sse", content: 100, prompt: 46, completion: 20, total: 66, finish: "length"},
	{file: "fireworks-llama33-70b-batched.sse", content: 128, prompt: 46, completion: 20, total: 66, finish: "length"},
	{file: "llamacpp-b7010-gptoss20b-timings.sse", content: 4, reasoning: 176, prompt: 84, completion: 57, total: 141, finish: "stop"},
	{file: "ollama-v1-gptoss20b-reasoning.sse", content: 40, reasoning: 85, prompt: 68, completion: 41, total: 109, finish: "stop"},
	{file: "tgi-143-nospace-data-prefix.sse", content: 115, finish: "length"},
	{file: "together-llama3-8b-turbo.sse", content: 112, prompt: 26, completion: 20, total: 46, finish: "length"},
	{file: "mistral-small-text.sse", content: 38, prompt: 13, completion: 8, total: 21, finish: "stop"},
	{file: "vllm-crusoe-llama33-70b.sse", content: 13, prompt: 46, completion: 14, total: 60, finish: "stop"},
	{file: "openai-http401-stream-request.sse", status: 401, errContains: "401 invalid_api_key: Incorrect API key provided"},
	{file: "groq-gptoss120b-error-midstream.sse", reasoning: 155, errContains: "tool_use_failed: Tool call validation failed"},
}

// replay serves body as the response to every request, in small writes
// with flushes, as a streaming server would.
func replay(t *testing.T, status int, body []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write(body)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for len(body) > 0 {
			n := min(len(body), 97) // odd size: splits lines and UTF-8 sequences across writes
			w.Write(body[:n])
			w.(http.Flusher).Flush()
			body = body[n:]
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func raceOne(t *testing.T, p config.Provider) Result {
	t.Helper()
	if p.Name == "" {
		p.Name = "test"
	}
	if p.Model == "" {
		p.Model = "m"
	}
	res := Race{Providers: []config.Provider{p}, Request: Request{Prompt: "hi", MaxTokens: 50}}.Run(context.Background(), nil)
	return res[0][0]
}

func TestRecordedProviderStreams(t *testing.T) {
	// Real provider streams with the totals a correct parser computes
	// (INDEX.md there), read in place, never copied.
	fixtureDir := filepath.Join(testenv.Require(t, "fixtures"), "sse")
	for _, want := range fixtureWants {
		t.Run(strings.TrimSuffix(want.file, ".sse"), func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(fixtureDir, want.file))
			if err != nil {
				t.Fatal(err)
			}
			res := raceOne(t, config.Provider{BaseURL: replay(t, want.status, body), APIKey: "sk-test-canary"})
			var content, reasoning strings.Builder
			for e := range res.Events.Values() {
				content.WriteString(e.Content)
				reasoning.WriteString(e.Reasoning)
			}
			if got := utf8.RuneCountInString(content.String()); got != want.content {
				t.Errorf("content = %d code points, want %d", got, want.content)
			}
			if got := utf8.RuneCountInString(reasoning.String()); got != want.reasoning {
				t.Errorf("reasoning = %d code points, want %d", got, want.reasoning)
			}
			// Counted as it arrived, in the provider's events cut at odd bytes.
			if got, whole := res.O200kTokens, tokens.Count(content.String())+tokens.Count(reasoning.String()); got != whole {
				t.Errorf("o200k tokens counted as they arrived = %d, counting the whole text %d", got, whole)
			}
			if want.errContains != "" {
				if res.Err == nil || !strings.Contains(res.Err.Error(), want.errContains) {
					t.Fatalf("err = %v, want it to contain %q", res.Err, want.errContains)
				}
				return
			}
			if res.Err != nil {
				t.Fatalf("unexpected failure: %v", res.Err)
			}
			if res.FinishReason != want.finish {
				t.Errorf("finish_reason = %q, want %q", res.FinishReason, want.finish)
			}
			var u Usage
			if res.Usage != nil {
				u = *res.Usage
			}
			if u.PromptTokens != want.prompt || u.CompletionTokens != want.completion || u.TotalTokens != want.total {
				t.Errorf("usage = %+v, want prompt %d completion %d total %d", u, want.prompt, want.completion, want.total)
			}
		})
	}
}
