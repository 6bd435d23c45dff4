package probes

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
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
	served                    Served // the response's model, system_fingerprint, OpenRouter provider
	cached                    *int   // usage's cached prompt tokens; nil: none reported
	cacheN                    int    // llama.cpp timings.cache_n
}

func some(n int) *int { return &n }

var fixtureWants = []fixtureWant{
	{file: "openai-gpt4o-text-usage.sse", content: 159, prompt: 14, completion: 30, total: 44, finish: "stop", served: Served{Model: "gpt-4o-2024-08-06", Fingerprint: "fp_5050236cbd"}},
	{file: "groq-llama33-70b-text.sse", content: 140, prompt: 45, completion: 662, total: 707, finish: "stop", served: Served{Model: "llama-3.3-70b-versatile", Fingerprint: "fp_f8b414701e"}},
	{file: "groq-gptoss120b-reasoning-usage.sse", content: 57, reasoning: 176, prompt: 339, completion: 58, total: 397, finish: "stop", served: Served{Model: "openai/gpt-oss-120b", Fingerprint: "fp_c82faf3ca0"}},
	{file: "deepseek-reasoner-reasoning-content.sse", content: 11, reasoning: 109, prompt: 6, completion: 212, total: 218, finish: "stop", served: Served{Model: "deepseek-reasoner", Fingerprint: "fp_393bca965e_prod0623_fp8_kvcache"}, cached: some(0)},
	{file: "openrouter-claude45-reasoning.sse", content: 9, reasoning: 51, prompt: 43, completion: 36, total: 79, finish: "stop", served: Served{Model: "anthropic/claude-sonnet-4.5", Provider: "Google"}, cached: some(0)},
	{file: "cerebras-llama33-70b-time-info.sse", content: 100, prompt: 46, completion: 20, total: 66, finish: "length", served: Served{Model: "llama-3.3-70b", Fingerprint: "fp_5fb719f1e4"}},
	{file: "fireworks-llama33-70b-batched.sse", content: 128, prompt: 46, completion: 20, total: 66, finish: "length", served: Served{Model: "accounts/fireworks/models/llama-v3p3-70b-instruct"}},
	{file: "llamacpp-b7010-gptoss20b-timings.sse", content: 4, reasoning: 176, prompt: 84, completion: 57, total: 141, finish: "stop", served: Served{Model: "openai/gpt-oss-20b", Fingerprint: "b7010-c27efd2bd"}, cacheN: 83},
	{file: "ollama-v1-gptoss20b-reasoning.sse", content: 40, reasoning: 85, prompt: 68, completion: 41, total: 109, finish: "stop", served: Served{Model: "gpt-oss:20b", Fingerprint: "fp_ollama"}},
	{file: "tgi-143-nospace-data-prefix.sse", content: 115, finish: "length", served: Served{Model: "HuggingFaceH4/zephyr-7b-beta", Fingerprint: "1.4.3-sha-e6bb3ff"}},
	{file: "together-llama3-8b-turbo.sse", content: 112, prompt: 26, completion: 20, total: 46, finish: "length", served: Served{Model: "meta-llama/Meta-Llama-3-8B-Instruct-Turbo"}},
	{file: "mistral-small-text.sse", content: 38, prompt: 13, completion: 8, total: 21, finish: "stop", served: Served{Model: "mistral-small-latest"}},
	{file: "vllm-crusoe-llama33-70b.sse", content: 13, prompt: 46, completion: 14, total: 60, finish: "stop", served: Served{Model: "meta-llama/Llama-3.3-70B-Instruct", Fingerprint: "vllm-0.24.0-tp4-6d31f84d"}, cached: some(0)},
	{file: "openai-http401-stream-request.sse", status: 401, errContains: "401 invalid_api_key: Incorrect API key provided"},
	{file: "groq-gptoss120b-error-midstream.sse", reasoning: 155, errContains: "tool_use_failed: Tool call validation failed", served: Served{Model: "openai/gpt-oss-120b", Fingerprint: "fp_e8236260a9"}},
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
			if res.Served != want.served {
				t.Errorf("served = %+v, want %+v", res.Served, want.served)
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
			if got := u.CachedPromptTokens; (got == nil) != (want.cached == nil) || got != nil && *got != *want.cached {
				t.Errorf("cached prompt tokens = %v, want %v", ptrText(got), ptrText(want.cached))
			}
			var cacheN int
			if res.Timings != nil {
				cacheN = res.Timings.CacheN
			}
			if cacheN != want.cacheN {
				t.Errorf("timings.cache_n = %d, want %d", cacheN, want.cacheN)
			}
		})
	}
}

func ptrText(n *int) string {
	if n == nil {
		return "none reported"
	}
	return strconv.Itoa(*n)
}

// The recorded streams report no cache hits; these are the fields of the
// same dialects with hits: OpenAI's, DeepSeek's (both fields, equal: not
// added), DeepSeek's older one alone, llama.cpp's timings.
func TestCachedPromptFields(t *testing.T) {
	for _, tc := range []struct {
		payload string
		cached  *int
		cacheN  int
	}{
		{`{"choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,"prompt_tokens_details":{"cached_tokens":1920}}}`, some(1920), 0},
		{`{"choices":[],"usage":{"prompt_tokens":70,"completion_tokens":9,"total_tokens":79,"prompt_tokens_details":{"cached_tokens":64},"prompt_cache_hit_tokens":64,"prompt_cache_miss_tokens":6}}`, some(64), 0},
		{`{"choices":[],"usage":{"prompt_tokens":70,"completion_tokens":9,"total_tokens":79,"prompt_cache_hit_tokens":64,"prompt_cache_miss_tokens":6}}`, some(64), 0},
		{`{"choices":[],"usage":{"prompt_tokens":70,"completion_tokens":9,"total_tokens":79}}`, nil, 0},
		{`{"choices":[],"timings":{"cache_n":83,"prompt_n":1,"prompt_per_second":111.2,"predicted_per_second":117.8}}`, nil, 83},
	} {
		d, err := decodeChunk([]byte(tc.payload), &Served{})
		if err != nil {
			t.Fatal(err)
		}
		var got *int
		if d.Usage != nil {
			got = d.Usage.CachedPromptTokens
		}
		if (got == nil) != (tc.cached == nil) || got != nil && *got != *tc.cached {
			t.Errorf("%s: cached = %s, want %s", tc.payload, ptrText(got), ptrText(tc.cached))
		}
		if d.Timings != nil && d.Timings.CacheN != tc.cacheN {
			t.Errorf("%s: cache_n = %d, want %d", tc.payload, d.Timings.CacheN, tc.cacheN)
		}
	}
}
