package probes

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// recordedPayloads calls each with every data payload of every recorded
// stream (the reader's view, valid until each returns).
func recordedPayloads(t *testing.T, each func(file string, payload []byte)) {
	t.Helper()
	dir := filepath.Join(testenv.Require(t, "fixtures"), "sse")
	for _, want := range fixtureWants {
		if want.status != 0 {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, want.file))
		if err != nil {
			t.Fatal(err)
		}
		r := newSSEReader(bytesReader(body))
		for data, err := r.next(); err != io.EOF; data, err = r.next() {
			if err != nil {
				t.Fatalf("%s: %v", want.file, err)
			}
			each(want.file, data)
		}
	}
}

// Every data payload of every recorded stream: the scanner agrees with the
// full decoder, and reads the text events (most of every stream) itself.
func TestChunkScannerOnRecordedStreams(t *testing.T) {
	events, scanned := map[string]int{}, map[string]int{}
	recordedPayloads(t, func(file string, payload []byte) {
		events[file]++
		if checkScan(t, payload) {
			scanned[file]++
		}
	})
	for file, n := range events {
		t.Logf("%s: %d of %d events scanned", file, scanned[file], n)
		if scanned[file]*10 < n*6 {
			t.Errorf("%s: the scanner read %d of %d events; it should read the text events", file, scanned[file], n)
		}
	}
}

// Every data payload of every recorded stream, with white space put in
// wherever JSON allows it (beside a brace, bracket, comma or colon, outside
// strings), as a server or a re-framing may: the scanner and the full
// decoder read it as they read the payload as sent.
func TestChunkReadersUnderWhiteSpace(t *testing.T) {
	recordedPayloads(t, func(file string, payload []byte) {
		var served Served
		sent, sentErr := decodeChunk(payload, &served)
		for _, c := range structuralChars(payload) {
			for _, i := range []int{c, c + 1} { // before it and after it
				spaced := slices.Concat(payload[:i], []byte(" \t\r\n"), payload[i:])
				checkScan(t, spaced)
				var s Served
				if got, err := decodeChunk(spaced, &s); (err == nil) != (sentErr == nil) || !reflect.DeepEqual(got, sent) {
					t.Fatalf("%s: %s\nreads %+v, %v\nsent as %s reads %+v, %v", file, spaced, got, err, payload, sent, sentErr)
				}
			}
		}
	})
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

// FuzzChunkTemplate: a chunk read by the template of the one before reads
// as the full decoder reads it. The fuzzer's text goes where the first
// chunk's string was, so it meets the template's bytes on both sides, and
// may break out of its string.
func FuzzChunkTemplate(f *testing.F) {
	const openai, tail = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":`, `},"logprobs":null,"finish_reason":null}]}`
	for _, seed := range [][3]string{
		{openai, `" the"`, tail},
		{openai, `"a\n\"b\""`, tail},
		{openai, `"é\n"`, tail},
		{openai, `"x","content":"y"`, tail},
		{openai, `"x"},"finish_reason":"stop"}],"model":"n","y":{"a":"`, tail},
		{openai, `null`, tail},
		{`{"choices":[{"index":0,"delta":{"content":null,"reasoning_content":`, `"think"`, `}}],"usage":null}`},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]), []byte(seed[2]))
	}
	f.Fuzz(func(t *testing.T, before, text, after []byte) {
		first := slices.Concat(before, []byte(`"first"`), after)
		second := slices.Concat(before, text, after)
		var s chunkScanner
		var scanServed, fullServed Served
		for _, payload := range [][]byte{first, second} {
			var got delta
			gotErr := s.decode(payload, &scanServed, &got)
			want, wantErr := decodeChunk(payload, &fullServed)
			if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) || scanServed != fullServed {
				t.Fatalf("%s:\nscanned %+v %v %+v\n   full %+v %v %+v", payload, got, gotErr, scanServed, want, wantErr, fullServed)
			}
		}
	})
}

// A stream's text chunks after its first are read by the template.
func TestChunkTemplateReadsTheStream(t *testing.T) {
	body := streamBody(100, 1)
	r := newSSEReader(bytesReader(body))
	var s chunkScanner
	var served Served
	templated := 0
	for {
		data, err := r.next()
		if err != nil {
			break
		}
		if s.fromTemplate(data, &delta{}) {
			templated++
		}
		if err := s.decode(data, &served, &delta{}); err != nil {
			t.Fatal(err)
		}
	}
	if templated < 99 {
		t.Errorf("%d of 100 text chunks read by the template", templated)
	}
}
