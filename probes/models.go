package probes

import (
	"context"
	"net/http"

	openai "github.com/sashabaranov/go-openai"

	"tpsrace/config"
)

// ModelCheck is what a provider says about its configured model.
type ModelCheck struct {
	Models []string // the ids GET {base_url}/models lists
	Listed bool     // the configured model is among them
	// Served: not listed, but GET {base_url}/models/{model} knows it (a
	// server that accepts parameterised names, like the simulator).
	Served bool
}

// CheckModel asks a provider which models it serves and whether the
// configured one is among them, spending no tokens. Its errors are Failures
// like a race's: redacted, with the same hints ("check GROQ_API_KEY"); the
// connect limit bounds each call.
func CheckModel(ctx context.Context, p config.Provider, client *http.Client) (ModelCheck, error) {
	lim := p.Timeout.Or(config.DefaultTimeouts)
	ctx, cancel := context.WithTimeoutCause(ctx, lim.Connect,
		&Failure{Kind: KindTimeout, Message: "no answer within " + lim.Connect.String() + " (connect limit)"})
	defer cancel()
	cfg := openai.DefaultConfig(p.APIKey.Reveal())
	cfg.BaseURL = p.BaseURL
	cfg.HTTPClient = headerDoer{client, p.Headers}
	api := openai.NewClientWithConfig(cfg)
	list, err := api.ListModels(ctx)
	if err != nil {
		f := (&probe{provider: p}).failure(ctx, err, &Result{}, "")
		f.redact(p.APIKey.Reveal(), urlSecret(p.BaseURL))
		return ModelCheck{}, f
	}
	var c ModelCheck
	for _, m := range list.Models {
		c.Models = append(c.Models, m.ID)
		c.Listed = c.Listed || m.ID == p.Model
	}
	if c.Listed || p.Model == "" {
		return c, nil
	}
	// A server without the retrieve endpoint answers an error: not served.
	_, err = api.GetModel(ctx, p.Model)
	c.Served = err == nil
	return c, nil
}

// headerDoer adds providers.yaml's headers to each request.
type headerDoer struct {
	http    *http.Client
	headers map[string]string
}

func (d headerDoer) Do(req *http.Request) (*http.Response, error) {
	for k, v := range d.headers {
		req.Header.Set(k, v)
	}
	return d.http.Do(req)
}
