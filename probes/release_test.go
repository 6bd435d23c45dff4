package probes_test

import (
	"context"
	"fmt"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
)

// The streams wait at the barrier stream by stream across the providers,
// so each provider's streams leave spread over the release alike. Waiting
// provider by provider, one provider's sixteen streams left 5–8 ms after
// another's in the median on a 2-core guest at C=16, that much of the
// start skew against one provider. Which stream leaves when is the scheduler's, so
// the test reads the order the streams were readied in: their records,
// handed out as each stream is readied.
func TestStreamsAreReadiedAcrossProviders(t *testing.T) {
	url := startSim(t)
	var providers []config.Provider
	for _, name := range []string{"a", "b", "c"} {
		providers = append(providers, config.Provider{Name: name, Model: "sim:ttft=1ms,tps=1000,tokens=3", BaseURL: url, Timeout: config.DefaultTimeouts})
	}
	updates := make(chan probes.Update, 64)
	var readied []string
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for u := range updates {
			if u.Shared != nil {
				readied = append(readied, fmt.Sprint(u.Provider, u.Stream))
			}
		}
	}()
	probes.Race{Providers: providers, Request: probes.Request{Prompt: "hi", MaxTokens: 3}, Concurrency: 2}.Run(context.Background(), updates)
	close(updates)
	<-collected
	if got, want := fmt.Sprint(readied), "[0 0 1 0 2 0 0 1 1 1 2 1]"; got != want {
		t.Errorf("streams readied in the order (provider stream) %s, want %s", got, want)
	}
}
