//go:build soak

// The soak test is not in the default run:
//
//	go test -tags soak -run Soak -v ./probes               # 60 s
//	TPSRACE_SOAK=10m go test -tags soak -run Soak -timeout 15m -v ./probes

package probes_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"go.uber.org/goleak"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// TestSoak races 256 streams at a time against the simulator, faults mixed
// in, again and again: no crash, no leak (goroutines back to the start, heap
// flat), and every stream of every race accounted for.
func TestSoak(t *testing.T) {
	duration := time.Minute
	if v := os.Getenv("TPSRACE_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatal(err)
		}
		duration = d
	}
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) }) // registered first, so it runs once the simulator has closed
	srv := simtest.Start(t, sim.Options{})

	faults := []string{"", "", "", "fault=close,after=20", "fault=stall,after=10", "fault=500", "fault=429,retry_after=1", "fault=error,after=30"}
	const users = 32 // 8 providers × 32 = 256 streams
	clients := &probes.Clients{}
	race := probes.Race{Providers: soakProviders(srv.URL(), faults), Request: probes.Request{Prompt: "soak", MaxTokens: 300}, Concurrency: users, Clients: clients}

	var firstHeap uint64
	races, streams, failed := 0, 0, 0
	deadline := time.Now().Add(duration)
	for time.Now().Before(deadline) {
		updates := make(chan probes.Update, 8192)
		drained := make(chan struct{})
		go func() {
			defer close(drained)
			for range updates {
			}
		}()
		results := race.Run(context.Background(), updates)
		close(updates)
		<-drained
		races++
		n, f := checkSoakRace(t, races, results, faults, users)
		streams, failed = streams+n, failed+f
		if races == 1 {
			firstHeap = heapAlloc()
		}
	}
	clients.Close()
	lastHeap := heapAlloc()
	t.Logf("%d races, %d streams (%d failed as injected), heap %d KiB after the first race, %d KiB at the end",
		races, streams, failed, firstHeap>>10, lastHeap>>10)
	if lastHeap > 2*firstHeap+1<<20 {
		t.Errorf("heap grew from %d to %d bytes", firstHeap, lastHeap)
	}
	if want := races * len(faults) * users; streams != want {
		t.Errorf("%d streams accounted for, want %d", streams, want)
	}
}

// soakProviders are one simulated provider per fault ("" for none) on
// the simulator at url, each with its own jitter seed.
func soakProviders(url string, faults []string) []config.Provider {
	var providers []config.Provider
	for i, f := range faults {
		model := fmt.Sprintf("sim:ttft=20ms,tps=50,tokens=100,jitter=0.2,seed=%d", i)
		if f != "" {
			model += "," + f
		}
		providers = append(providers, config.Provider{Name: fmt.Sprint("p", i), BaseURL: url, Model: model,
			Timeout: config.Timeouts{Stall: 2 * time.Second, Total: 10 * time.Second}})
	}
	return providers
}

// checkSoakRace checks that race n accounted for each provider's users
// streams, each failed as its provider's fault says, and counts them.
func checkSoakRace(t *testing.T, n int, results [][]probes.Result, faults []string, users int) (streams, failed int) {
	t.Helper()
	for i, ps := range results {
		if len(ps) != users {
			t.Fatalf("race %d provider %d: %d results, want %d", n, i, len(ps), users)
		}
		for _, r := range ps {
			streams++
			switch {
			case faults[i] == "" && r.Err != nil:
				t.Fatalf("race %d: %s/%d has no fault but failed: %v", n, r.Provider, r.Stream, r.Err)
			case faults[i] != "" && r.Err == nil:
				t.Fatalf("race %d: %s/%d should have failed with %s", n, r.Provider, r.Stream, faults[i])
			case r.Err != nil:
				failed++
			case r.FinishReason == "":
				t.Fatalf("race %d: %s/%d ok without a finish reason", n, r.Provider, r.Stream)
			}
		}
	}
	return streams, failed
}

// heapAlloc is the heap in use after a collection.
func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
