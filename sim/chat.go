package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"tpsrace/tokens"
)

const maxRequestBody = 16 << 20

// readChatRequest parses the body, returning the request and its prompt text
// (every message content, concatenated).
func readChatRequest(w http.ResponseWriter, r *http.Request) (chatRequest, string, error) {
	var req chatRequest
	// Reading to EOF also lets net/http notice when the client goes away.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
	if err != nil {
		return req, "", fmt.Errorf("reading the request body: %v", err)
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return req, "", fmt.Errorf("the request body is not valid JSON: %v", err)
	}
	for _, limit := range []*int{req.MaxTokens, req.MaxCompletionTokens} {
		if limit != nil && *limit < 1 {
			return req, "", errors.New("max_tokens must be at least 1")
		}
	}
	var prompt strings.Builder
	for _, m := range req.Messages {
		t, err := m.text()
		if err != nil {
			return req, "", err
		}
		prompt.WriteString(t)
	}
	return req, prompt.String(), nil
}

func (h *handler) chat(w http.ResponseWriter, r *http.Request) {
	received := time.Now() // headers read: reading and decoding a long body is the server's time, not the client's
	if h.loading() {
		writeRawJSON(w, http.StatusServiceUnavailable, loadingBody)
		return
	}
	req, prompt, err := readChatRequest(w, r)
	if err != nil {
		writeError(w, http.StatusBadRequest, apiError{Message: err.Error(), Type: "invalid_request_error"})
		return
	}
	if !strings.HasPrefix(req.Model, Prefix) {
		writeError(w, http.StatusNotFound, apiError{
			Message: fmt.Sprintf("The model %q does not exist: this simulator serves %q... models only", req.Model, Prefix),
			Type:    "invalid_request_error", Code: "model_not_found",
		})
		return
	}
	s, err := ParseSchedule(req.Model)
	if err != nil {
		writeError(w, http.StatusBadRequest, apiError{Message: err.Error(), Type: "invalid_request_error", Code: "invalid_model"})
		return
	}
	if s.statusFault() {
		writeStatusFault(w, r, s)
		return
	}
	if s.Fault != "" && !req.Stream {
		writeError(w, http.StatusBadRequest, apiError{Message: fmt.Sprintf(`fault=%s needs "stream": true`, s.Fault), Type: "invalid_request_error"})
		return
	}
	promptTokens := tokens.Count(prompt)
	if s.CacheMin > 0 && promptTokens >= s.CacheMin && h.seen(req.Model, prompt) {
		s.Cached = promptTokens // a repeated prompt is served from the cache whole
	}
	g := h.begin(r.Context(), req, s, promptTokens, received)
	if g == nil {
		return // the client left, or the server closed, while queued for a slot
	}
	defer g.end()
	if req.Stream {
		g.stream(r.Context(), w)
	} else {
		g.respond(r.Context(), w)
	}
}
