package probes

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"

	"tpsrace/config"
)

// warmUp opens n connections to p (DNS, TCP and TLS) with the client its
// streams will use, and leaves them idle in its pool: with Race.Warm,
// TTFT then measures the model, not the handshake. Each connection carries
// one GET of the provider's /models (any answer will do, a 404 too); a
// failure here is not the race's: the stream that follows reports its own.
func warmUp(ctx context.Context, cl *http.Client, p config.Provider, n int) {
	lim := p.Timeout.Or(config.DefaultTimeouts)
	ctx, cancel := context.WithTimeout(ctx, lim.Connect)
	defer cancel()
	url := strings.TrimSuffix(p.BaseURL, "/") + "/models"
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return
			}
			for k, v := range p.Headers {
				req.Header.Set(k, v)
			}
			if key := p.APIKey.Reveal(); key != "" {
				req.Header.Set("Authorization", "Bearer "+key)
			}
			resp, err := cl.Do(req)
			if err != nil {
				return
			}
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // read to the end, so the connection is reused
			resp.Body.Close()
		})
	}
	wg.Wait()
}
