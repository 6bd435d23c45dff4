//go:build unix

package probes

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/scripts/costs/reference"
	"tpsrace/tokens"
)

// The cost of measuring: tpsrace must measure the provider, not itself.
// Both arms below read the same body from the same loopback server, which
// writes it in one call so that nearly all the process's CPU is the
// client's. The reference is the least a client can do: plain net/http,
// split lines, decode each event's JSON. This is the in-process view;
// what a user pays, whole processes with start-up, is scripts/costs's
// (docs/BENCHMARKS.md).

const costTokens = 20000

// costBody is an OpenAI-shaped stream of costTokens one-token events.
func costBody() []byte {
	var b bytes.Buffer
	for i := range costTokens {
		fmt.Fprintf(&b, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":{"content":%q},"logprobs":null,"finish_reason":null}]}`+"\n\n", " "+costWords[i%len(costWords)])
	}
	b.WriteString(`data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":20000,"total_tokens":20010}}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

func costServer(b *testing.B) string {
	body := costBody()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureCPU runs streamOnce b.N times and reports CPU per streamed token.
func measureCPU(b *testing.B, streamOnce func() int) {
	tokens.Warm()
	streamOnce() // connection and first-use costs out of the measurement
	b.ResetTimer()
	start, n := cpuTime(), 0
	for b.Loop() {
		n += streamOnce()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/token")
}

func BenchmarkMeasuringCost(b *testing.B) {
	url := costServer(b)
	b.Run("reference", func(b *testing.B) {
		client := &http.Client{}
		measureCPU(b, func() int {
			n, _, err := reference.Stream(client, url, `{"model":"bench","stream":true}`, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			return n
		})
	})
	b.Run("tpsrace", func(b *testing.B) {
		race := Race{Providers: []config.Provider{{Name: "bench", Model: "bench", BaseURL: url}}, Request: Request{Prompt: "hi", MaxTokens: costTokens}, Clients: &Clients{}}
		measureCPU(b, func() int {
			res := race.Run(context.Background(), nil)[0][0]
			if res.Err != nil || res.Events.Len() != costTokens {
				b.Fatalf("events %d, err %v", res.Events.Len(), res.Err)
			}
			return res.Events.Len()
		})
	})
}
