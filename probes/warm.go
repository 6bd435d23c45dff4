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
	// Each GET holds its connection until every GET has its answer: one that
	// finished first would otherwise hand its connection to the next, and
	// the race would find fewer than n open.
	var wg, answered sync.WaitGroup
	answered.Add(n)
	for range n {
		wg.Go(func() {
			resp, err := warmRequest(ctx, cl, p, url)
			answered.Done()
			if err != nil {
				return
			}
			answered.Wait()
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // read to the end, so the connection is reused
			resp.Body.Close()
		})
	}
	wg.Wait()
}

// warmRequest sends one GET of url to p as its streams will be sent.
func warmRequest(ctx context.Context, cl *http.Client, p config.Provider, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	setProviderHeaders(req.Header, p)
	return cl.Do(req)
}
