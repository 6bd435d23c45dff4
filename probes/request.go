package probes

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"tpsrace/config"
	"tpsrace/tokens"
	"tpsrace/workload"
)

// Request is what every stream of a race sends.
type Request struct {
	Prompt    string
	MaxTokens int
	// Tool, when set, is offered as the one function, with tool_choice
	// "required" (params may set another).
	Tool *workload.Function
	// Answer, when set, asks for JSON following its schema
	// (response_format json_schema, strict; params may set json_object).
	Answer *workload.Function
	// InputTokens, when set, pads Prompt to that many o200k tokens
	// (workload.Pad) with Nonce first (when empty, one of the race's own),
	// so that no prefix cache helps unless the nonce is reused on purpose:
	// the long-context and cached-prefix workloads.
	InputTokens int
	Nonce       string
	// FollowUps are a conversation's user messages after Prompt, the last
	// this turn's; Answers[i] the answers provider i gave to the turns
	// before (Conversation keeps them): the multi-turn workload.
	FollowUps []string
	Answers   [][]string
}

func newRequest(p config.Provider, r Request) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model:         p.Model,
		Messages:      r.messages(),
		MaxTokens:     r.MaxTokens,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if f := r.Tool; f != nil {
		req.Tools = []openai.Tool{{Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: f.Name, Description: f.Description, Parameters: f.Parameters}}}
		req.ToolChoice = "required"
	}
	if f := r.Answer; f != nil {
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: f.Name, Description: f.Description, Schema: f.Parameters, Strict: true}}
	}
	return req
}

// messages are the conversation so far: the prompt, then each earlier
// answer and the user message after it. The answers are those of the
// provider the request is for (forProvider).
func (r Request) messages() []openai.ChatCompletionMessage {
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: r.Prompt}}
	for j, followUp := range r.FollowUps {
		answer := ""
		if len(r.Answers) == 1 && j < len(r.Answers[0]) {
			answer = r.Answers[0][j]
		}
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: answer},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: followUp})
	}
	return msgs
}

// conversationTokens is the o200k count of every message of a multi-turn
// request after its first turn; 0 for any other request.
func (r Request) conversationTokens() int {
	if len(r.FollowUps) == 0 {
		return 0
	}
	n := 0
	for _, m := range r.messages() {
		n += tokens.Count(m.Content)
	}
	return n
}

// forProvider is r as provider i sends it: with its own earlier answers.
func (r Request) forProvider(i int) Request {
	if i < len(r.Answers) {
		r.Answers = r.Answers[i : i+1]
	} else {
		r.Answers = nil
	}
	return r
}

// Conversation keeps each provider's answers of a multi-turn race, turn
// after turn: the answer of its first stream.
type Conversation struct{ answers [][]string }

// Turn is r for the turn whose user messages after the prompt are
// followUps: a first turn (none) starts the conversation anew.
func (c *Conversation) Turn(r Request, followUps []string) Request {
	if len(followUps) == 0 {
		c.answers = nil
	}
	r.FollowUps, r.Answers = followUps, c.answers
	return r
}

// Heard adds each provider's answer of a finished turn.
func (c *Conversation) Heard(results [][]Result) {
	c.answers = append(c.answers[:0:0], c.answers...)
	for len(c.answers) < len(results) {
		c.answers = append(c.answers, nil)
	}
	for i, streams := range results {
		var answer strings.Builder
		if len(streams) > 0 {
			for e := range streams[0].Events.Values() {
				answer.WriteString(e.Content)
			}
		}
		c.answers[i] = append(slices.Clip(c.answers[i]), answer.String())
	}
}

// requestBody is what every stream of one provider posts, encoded once
// before the release: go-openai's request type, validated as go-openai
// does, with providers.yaml's params merged in.
type requestBody struct {
	url  string
	body []byte
	err  error // the request could not be built; each stream reports it
}

func newRequestBody(p config.Provider, r Request) *requestBody {
	req := newRequest(p, r)
	b := &requestBody{url: strings.TrimRight(p.BaseURL, "/") + "/chat/completions"}
	if b.err = openai.NewReasoningValidator().Validate(req); b.err != nil {
		return b
	}
	if b.body, b.err = json.Marshal(req); b.err != nil || len(p.Params) == 0 {
		return b
	}
	b.body, b.err = mergeParams(b.body, p.Params)
	return b
}

// mergeParams adds providers.yaml's params to the JSON body. They override
// tpsrace's fields (a JSON null removes one), except the few that make the
// request a measured stream.
func mergeParams(raw []byte, params map[string]any) ([]byte, error) {
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	for k, v := range params {
		if config.ReservedParam(k) {
			continue
		}
		if v == nil {
			delete(body, k)
		} else {
			body[k] = v
		}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	return raw, nil
}
