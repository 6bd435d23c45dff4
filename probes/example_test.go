package probes_test

import (
	"context"
	"fmt"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
)

// Two providers race one prompt, two streams each, released at the same
// instant; here both are the project's simulator on loopback. Each stream's
// Result holds what was recorded (events, usage, finish reason); figures
// are computed from it by package metrics.
func ExampleRace_Run() {
	srv, err := sim.Start("127.0.0.1:0", sim.Options{})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	provider := func(name, model string) config.Provider {
		return config.Provider{Name: name, Kind: config.KindOpenAI, BaseURL: srv.URL(), Model: model, Timeout: config.DefaultTimeouts}
	}
	race := probes.Race{
		Providers: []config.Provider{
			provider("fast", "sim:ttft=20ms,tps=2000,tokens=40"),
			provider("slow", "sim:ttft=50ms,tps=500,tokens=10"),
		},
		Request:     probes.Request{Prompt: "Say something.", MaxTokens: 40},
		Concurrency: 2,
	}
	results := race.Run(context.Background(), nil) // results[provider][stream]
	for _, streams := range results {
		for _, r := range streams {
			fmt.Printf("%s stream %d: ok %v, %d text events, %d tokens (usage), finish %q\n",
				r.Provider, r.Stream, r.OK(), r.Events.Len(), r.Usage.CompletionTokens, r.FinishReason)
		}
	}
	// Output:
	// fast stream 0: ok true, 40 text events, 40 tokens (usage), finish "stop"
	// fast stream 1: ok true, 40 text events, 40 tokens (usage), finish "stop"
	// slow stream 0: ok true, 10 text events, 10 tokens (usage), finish "stop"
	// slow stream 1: ok true, 10 text events, 10 tokens (usage), finish "stop"
}
