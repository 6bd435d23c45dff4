package probes

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"tpsrace/testenv"
)

// checkScan: where the scanner reads a chunk, it reads it as decodeChunk
// (the definition) does, the served fields included. It reports whether
// the scanner read it.
func checkScan(t *testing.T, payload []byte) bool {
	t.Helper()
	var s chunkScanner
	var scanServed, fullServed Served
	got, ok := s.scan(payload, &scanServed)
	want, err := decodeChunk(payload, &fullServed)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%s: scanned, but the full decoder says %v", payload, err)
	}
	if !reflect.DeepEqual(got, want) || scanServed != fullServed {
		t.Fatalf("%s:\nscanned %+v %+v\n   full %+v %+v", payload, got, scanServed, want, fullServed)
	}
	return true
}

var scanSeeds = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","system_fingerprint":"fp","choices":[{"index":0,"delta":{"content":" the"},"logprobs":null,"finish_reason":null}]}`,
	`{"choices":[{"index":0,"delta":{"content":"a\nb \"q\" \u00e9 \/"},"finish_reason":null}],"usage":null}`,
	`{"choices":[{"index":0,"delta":{"reasoning_content":"think","content":null}}]}`,
	`{"choices":[{"index":0,"delta":{"reasoning":"r","role":"assistant","content":""}}],"x_groq":null}`,
	`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	`{"choices":[{"index":1,"delta":{"content":"other"}}]}`,
	`{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
	`{"choices":[{"delta":{"content":[{"type":"text","text":"x"}]}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"\ud83d\ude00"}}]}`,
	`{"Choices":[{"index":0,"delta":{"content":"x"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"x","content":"y"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":"é\n"}}]}`,
	`{"choices":[{"index":0,"delta":{"tool_calls":[]},"stop_reason":[1,2.5e-3,{"a":true,"b":false}]}]}`,
	` {"model":7,"provider":"Google","choices":[{"index":0,"delta":null}]} `,
	`{"choices":[{"index":0,"delta":{"content":"x"}}]}x`,
	`{"error":{"message":"boom"}}`,
}

func TestChunkScannerAgreesWithTheDecoder(t *testing.T) {
	scanned := 0
	for _, p := range scanSeeds {
		if checkScan(t, []byte(p)) {
			scanned++
		}
	}
	if scanned < 8 {
		t.Errorf("the scanner read %d of the %d seeds; the common shapes are its job", scanned, len(scanSeeds))
	}
}

// Every data payload of every recorded stream: the scanner agrees with the
// full decoder, and reads the text events (most of every stream) itself.
func TestChunkScannerOnRecordedStreams(t *testing.T) {
	dir := filepath.Join(testenv.Require(t, "fixtures"), "sse")
	for _, want := range fixtureWants {
		if want.status != 0 {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, want.file))
		if err != nil {
			t.Fatal(err)
		}
		r := newSSEReader(bytesReader(body), nil)
		events, scanned := 0, 0
		for {
			data, err := r.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", want.file, err)
			}
			events++
			if checkScan(t, data) {
				scanned++
			}
		}
		t.Logf("%s: %d of %d events scanned", want.file, scanned, events)
		if scanned*10 < events*6 {
			t.Errorf("%s: the scanner read %d of %d events; it should read the text events", want.file, scanned, events)
		}
	}
}

// FuzzChunkScanner: whatever the scanner reads, it reads as the full
// decoder does.
func FuzzChunkScanner(f *testing.F) {
	for _, p := range scanSeeds {
		f.Add([]byte(p))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		checkScan(t, payload)
	})
}

func bytesReader(b []byte) io.Reader { return &stepReader{b, len(b)} }
