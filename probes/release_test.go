package probes_test

import (
	"context"
	"fmt"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
)

// The streams wait at the barrier stream by stream across the providers,
// each round in a new random order, so each provider's streams leave
// spread over the release alike. Waiting provider by provider, one
// provider's sixteen streams left 5–8 ms after another's in the median on
// a 2-core guest at C=16, that much of the start skew against one
// provider; and at C=1 the same provider left last in every race. Which
// stream leaves when is the scheduler's, so the test reads the order the
// streams were readied in: their records, handed out as each is readied.
func TestStreamsAreReadiedAcrossProviders(t *testing.T) {
	url := startSim(t)
	var providers []config.Provider
	for _, name := range []string{"a", "b", "c"} {
		providers = append(providers, config.Provider{Name: name, Model: "sim:ttft=1ms,tps=1000,tokens=3", BaseURL: url, Timeout: config.DefaultTimeouts})
	}
	const conc = 2
	firsts := map[int]bool{} // the providers readied first in a round, over the races
	for race := 0; race < 20; race++ {
		updates := make(chan probes.Update, 64)
		var readied []probes.Update
		collected := make(chan struct{})
		go func() {
			defer close(collected)
			for u := range updates {
				if u.Shared != nil {
					readied = append(readied, u)
				}
			}
		}()
		probes.Race{Providers: providers, Request: probes.Request{Prompt: "hi", MaxTokens: 3}, Concurrency: conc}.Run(context.Background(), updates)
		close(updates)
		<-collected
		if len(readied) != conc*len(providers) {
			t.Fatalf("%d streams readied, want %d", len(readied), conc*len(providers))
		}
		for k, u := range readied {
			round := readied[k/len(providers)*len(providers) : (k/len(providers)+1)*len(providers)]
			seen := map[int]bool{}
			for _, v := range round {
				seen[v.Provider] = true
			}
			if u.Stream != k/len(providers) || len(seen) != len(providers) {
				t.Fatalf("race %d: streams readied as %s, want each round to hold one stream of every provider", race, order(readied))
			}
			if k%len(providers) == 0 {
				firsts[u.Provider] = true
			}
		}
	}
	if len(firsts) != len(providers) {
		t.Errorf("in 20 races only providers %v were readied first in a round", firsts)
	}
}

// order is the (provider stream) pairs of updates, in order.
func order(updates []probes.Update) string {
	var pairs []string
	for _, u := range updates {
		pairs = append(pairs, fmt.Sprint(u.Provider, u.Stream))
	}
	return fmt.Sprint(pairs)
}
