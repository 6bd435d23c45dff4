package probes

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// costWords are the words of the benchmarks' streams, one token each.
var costWords = strings.Fields("the cache keeps recently used lines close to the core so that a load finds its data in a few cycles instead of hundreds")

// streamBody is an OpenAI-shaped stream of events text events of perEvent
// one-token words each, then a finish chunk with usage and [DONE].
func streamBody(events, perEvent int) []byte {
	var b bytes.Buffer
	for i := range events {
		var text strings.Builder
		for k := range perEvent {
			text.WriteString(" " + costWords[(i*perEvent+k)%len(costWords)])
		}
		fmt.Fprintf(&b, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":{"content":%q},"logprobs":null,"finish_reason":null}]}`+"\n\n", text.String())
	}
	fmt.Fprintf(&b, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":%d,"total_tokens":%d}}`+"\n\ndata: [DONE]\n\n", events*perEvent, 10+events*perEvent)
	return b.Bytes()
}

// readBody reads body as a stream's attempt does, without the network.
func readBody(tb testing.TB, body []byte) Result {
	var res Result
	rd := newStreamReader(&probe{}, time.Now(), time.NewTimer(time.Hour), &res)
	if err := rd.read(bytes.NewReader(body)); err != nil {
		tb.Fatal(err)
	}
	return res
}

// The hot path allocates nothing per event: ten times the events costs only
// the few allocations of buffers that grow by doubling.
func TestStreamReadsWithoutAllocating(t *testing.T) {
	for _, perEvent := range []int{1, 4} {
		few, many := streamBody(500, perEvent), streamBody(5000, perEvent)
		if res := readBody(t, many); res.Events.Len() != 5000 || res.O200kTokens != 5000*perEvent {
			t.Fatalf("%d events, %d tokens", res.Events.Len(), res.O200kTokens)
		}
		fewAllocs := testing.AllocsPerRun(3, func() { readBody(t, few) })
		manyAllocs := testing.AllocsPerRun(3, func() { readBody(t, many) })
		if extra := manyAllocs - fewAllocs; extra > 45 { // 1 per 100 events: growth, not events
			t.Errorf("%d tokens/event: 5000 events allocate %.0f times, 500 events %.0f: %.2f per extra event",
				perEvent, manyAllocs, fewAllocs, extra/4500)
		}
	}
}

// BenchmarkReadStream is a stream's whole read path per event: lines,
// chunk, think split, o200k counts, the record.
func BenchmarkReadStream(b *testing.B) {
	for _, perEvent := range []int{1, 4} {
		b.Run(fmt.Sprintf("tokens=%d", perEvent), func(b *testing.B) {
			const events = 2000
			body := streamBody(events, perEvent)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				readBody(b, body)
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N*events), "ns/event")
		})
	}
}

// BenchmarkSSEReader is the line split alone, per event.
func BenchmarkSSEReader(b *testing.B) {
	for _, perEvent := range []int{1, 4} {
		b.Run(fmt.Sprintf("tokens=%d", perEvent), func(b *testing.B) {
			const events = 2000
			body := streamBody(events, perEvent)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				r := newSSEReader(bytes.NewReader(body))
				for {
					if _, err := r.next(); err != nil {
						break
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N*events), "ns/event")
		})
	}
}

// BenchmarkDecodeChunk is one content chunk: by the template of the chunk
// before (a stream's usual case), by a scan of every member, and by the full
// decoder both stand in for.
func BenchmarkDecodeChunk(b *testing.B) {
	payload := []byte(`{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":{"content":" cache"},"logprobs":null,"finish_reason":null}]}`)
	b.Run("template", func(b *testing.B) {
		var s chunkScanner
		served := Served{Model: "bench"}
		b.ReportAllocs()
		for b.Loop() {
			var d delta
			if s.decode(payload, &served, &d); d.Content != " cache" {
				b.Fatal(d.Content)
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		var s chunkScanner
		served := Served{Model: "bench"}
		b.ReportAllocs()
		for b.Loop() {
			if d, _ := s.scan(payload, &served); d.Content != " cache" {
				b.Fatal(d.Content)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		served := Served{Model: "bench"}
		b.ReportAllocs()
		for b.Loop() {
			if d, _ := decodeChunk(payload, &served); d.Content != " cache" {
				b.Fatal(d.Content)
			}
		}
	})
}
