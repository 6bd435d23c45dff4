package metrics

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/testenv"
)

// replayFixture streams a recorded body over loopback and measures it.
func replayFixture(t *testing.T, file string) Figures {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(testenv.Require(t, "fixtures"), "sse", file))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	defer srv.Close()
	p := config.Provider{Name: "fixture", Model: "m", BaseURL: srv.URL + "/v1", APIKey: "sk-test"}
	res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 50}}.Run(context.Background(), nil)
	return Compute(&res[0][0], 0)
}

// The recorded reasoning streams (INDEX.md there) stream their reasoning:
// nothing hidden, thinking as usage's reasoning_tokens says (Ollama and
// llama.cpp report none: the o200k count of the reasoning). The two trimmed
// recordings keep 35 of their blocks while usage counts the whole answer:
// what was cut is, to the client, tokens reported but never streamed, and
// no longer inflates their output speed.
func TestRecordedReasoningPhases(t *testing.T) {
	for _, tc := range []struct {
		file             string
		hidden, thinking int
	}{
		{"groq-gptoss120b-reasoning-usage.sse", 0, 38},
		{"openrouter-claude45-reasoning.sse", 0, 13},
		{"ollama-v1-gptoss20b-reasoning.sse", 0, 19},
		{"llamacpp-b7010-gptoss20b-timings.sse", 0, 46},
		{"openai-gpt4o-text-usage.sse", 0, 0},
		{"deepseek-reasoner-reasoning-content.sse", 169, 198}, // trimmed: 29 of 198 reasoning tokens kept
		{"groq-llama33-70b-text.sse", 629, 629},               // trimmed: 33 of 662 tokens kept
	} {
		f := replayFixture(t, tc.file)
		if f.HiddenReasoningTokens != tc.hidden || f.ThinkingTokens != tc.thinking {
			t.Errorf("%s: %d hidden of %d thinking tokens, want %d of %d", tc.file, f.HiddenReasoningTokens, f.ThinkingTokens, tc.hidden, tc.thinking)
		}
		if f.AnswerTokens != f.OutputTokens-f.ThinkingTokens {
			t.Errorf("%s: %d answer tokens, want output − thinking = %d", tc.file, f.AnswerTokens, f.OutputTokens-f.ThinkingTokens)
		}
	}
}
