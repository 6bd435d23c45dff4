package probes

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzStream feeds arbitrary bytes through the whole parsing path (SSE
// reader, then chunk decoder): it must never panic, and [DONE] ends the
// stream instead of passing for a payload.
func FuzzStream(f *testing.F) {
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"))
	f.Add([]byte(": keep-alive\n\nevent: error\ndata: {\"error\":{\"message\":\"boom\",\"code\":500}}\n\n"))
	f.Add([]byte("data:{\"choices\":[{\"delta\":{\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"t\"}]}]}}]}"))
	f.Add([]byte("<html><body>502 Bad Gateway</body></html>"))
	f.Add([]byte("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,\"total_tokens\":9}}\r\n\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		sse := newSSEReader(bytes.NewReader(body))
		var chunks chunkScanner
		for {
			payload, err := sse.next()
			if err != nil {
				return
			}
			if bytes.Equal(payload, []byte("[DONE]")) {
				t.Fatalf("[DONE] passed on as a payload")
			}
			chunks.decode(payload, &Served{}, &delta{})
		}
	})
}

// FuzzThinkSplit: however the text is cut into events, moving a leading
// <think> block to reasoning gives the same answer and reasoning.
func FuzzThinkSplit(f *testing.F) {
	f.Add("<think>plan the answer</think>\nThe answer.", uint8(3))
	f.Add("  <think>a</thi", uint8(1))
	f.Add("No tags here, just <think> mentioned.", uint8(5))
	f.Add("<think>never closed", uint8(2))
	f.Fuzz(func(t *testing.T, s string, step uint8) {
		whole := split(s, len(s)+1)
		pieces := split(s, int(step%16)+1)
		if whole != pieces {
			t.Fatalf("%q: whole %+v, in pieces of %d %+v", s, whole, step%16+1, pieces)
		}
		if len(whole[0])+len(whole[1]) > len(s) {
			t.Fatalf("%q: split made text: %+v", s, whole)
		}
	})
}

func split(s string, step int) [2]string {
	var t thinkSplitter
	var answer, reasoning strings.Builder
	for i := 0; i < len(s); i += step {
		a, r := t.split(s[i:min(i+step, len(s))])
		answer.WriteString(a)
		reasoning.WriteString(r)
	}
	a, r := t.flush()
	answer.WriteString(a)
	reasoning.WriteString(r)
	return [2]string{answer.String(), reasoning.String()}
}
