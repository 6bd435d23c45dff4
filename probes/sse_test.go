package probes

import (
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// specEvents is the WHATWG "parsing an event stream" algorithm, written
// straight from the standard, as the reference sseReader is checked
// against: the data of each event dispatched, in order. One change, which
// sseReader makes on purpose: at the end of the body, a last line without a
// line end is a line, and an event without its blank line is dispatched.
// (The standard decodes the bytes as UTF-8 first; every character the
// algorithm looks at is ASCII, so it runs on the bytes, and the JSON
// decoder reads what the data's bytes mean.)
func specEvents(body string) []string {
	body = strings.TrimPrefix(body, "\uFEFF")
	var lines []string
	for body != "" {
		end := strings.IndexAny(body, "\r\n")
		if end < 0 {
			lines = append(lines, body) // the one change: a last line without its end
			break
		}
		lines = append(lines, body[:end])
		if strings.HasPrefix(body[end:], "\r\n") {
			end++
		}
		body = body[end+1:]
	}
	var events []string
	var data strings.Builder
	dispatch := func() {
		if data.Len() == 0 {
			return
		}
		events = append(events, strings.TrimSuffix(data.String(), "\n"))
		data.Reset()
	}
	for _, line := range lines {
		switch {
		case line == "":
			dispatch()
		case line[0] == ':':
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			if field == "data" {
				data.WriteString(value)
				data.WriteByte('\n')
			}
			// event, id, retry and other fields set nothing data depends on
		}
	}
	dispatch() // the one change: the last event needs no blank line
	return events
}

// readAll reads body with sseReader, size bytes of buffer, through a
// source that returns step bytes a read.
func readAll(body []byte, size, step int) (events []string, err error) {
	r := newSSEReaderSize(&stepReader{body, step}, size)
	for {
		data, err := r.next()
		if err != nil {
			return events, err
		}
		events = append(events, string(data))
	}
}

type stepReader struct {
	b    []byte
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), s.step)], s.b)
	s.b = s.b[n:]
	return n, nil
}

// checkAgainstSpec reads body every which way and compares with specEvents.
func checkAgainstSpec(t *testing.T, body []byte) {
	t.Helper()
	want := specEvents(string(body))
	if i := slices.IndexFunc(want, func(d string) bool { return strings.TrimSpace(d) == "[DONE]" }); i >= 0 {
		want = want[:i] // data: [DONE] ends the stream
	}
	for _, size := range []int{sseBuffer, 7} {
		for _, step := range []int{len(body) + 1, 1, 3} {
			got, err := readAll(body, size, step)
			var f *Failure
			if errors.As(err, &f) && f.Kind == KindProtocol { // refused: no event stream
				if isEventStream(body) && !startsWithJSON(body) {
					t.Fatalf("%q (buffer %d, reads of %d): %v", body, size, step, err)
				}
				continue
			}
			if err != io.EOF {
				t.Fatalf("%q: err %v", body, err)
			}
			if !isEventStream(body) || startsWithJSON(body) {
				t.Fatalf("%q (buffer %d, reads of %d): accepted, but no line is an event stream's, or its first is JSON", body, size, step)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%q (buffer %d, reads of %d):\n got %q\nwant %q", body, size, step, got, want)
			}
		}
	}
}

// isEventStream: the body has a comment or a data, event, id or retry line,
// or no line that is not blank (an empty stream).
func isEventStream(body []byte) bool {
	lines := nonBlankLines(body)
	for _, line := range lines {
		field, _, _ := strings.Cut(line, ":")
		if line[0] == ':' || slices.Contains([]string{"data", "event", "id", "retry"}, field) {
			return true
		}
	}
	return len(lines) == 0
}

// startsWithJSON: the first line that is not blank is a JSON value whole,
// which sseReader refuses at once.
func startsWithJSON(body []byte) bool {
	lines := nonBlankLines(body)
	return len(lines) > 0 && json.Valid([]byte(lines[0]))
}

// nonBlankLines are body's lines that are not blank, its byte order mark dropped.
func nonBlankLines(body []byte) []string {
	return strings.FieldsFunc(strings.TrimPrefix(string(body), "\uFEFF"), func(r rune) bool { return r == '\r' || r == '\n' })
}

func TestSSEFramings(t *testing.T) {
	const payload = `{"choices":[{"index":0,"delta":{"content":"hi"}}]}`
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"lf", "data: " + payload + "\n\ndata: [DONE]\n\n", []string{payload}},
		{"crlf", "data: " + payload + "\r\n\r\ndata: [DONE]\r\n\r\n", []string{payload}},
		{"cr", "data: " + payload + "\r\rdata: [DONE]\r\r", []string{payload}},
		{"bom", "\uFEFFdata: " + payload + "\n\n", []string{payload}},
		{"no space", "data:" + payload + "\n\n", []string{payload}},
		{"two spaces", "data:  x\n\n", []string{" x"}},
		{"split data", "data: {\"a\":\ndata: 1}\n\n", []string{"{\"a\":\n1}"}},
		{"data without colon", "data\ndata: x\n\n", []string{"\nx"}},
		{"fields and comments", ": hi\nevent: error\nid: 7\nretry: 10\nfoo: bar\ndata: x\n\n", []string{"x"}},
		{"no data, no event", "event: ping\n\ndata: x\n\n", []string{"x"}},
		{"no blank line at the end", "data: a\n\ndata: b", []string{"a", "b"}},
		{"done ends it", "data: a\n\ndata: [DONE]\n\ndata: b\n\n", []string{"a"}},
		{"a field of its own first", "x-trace: 1\ndata: x\n\n", []string{"x"}},
		{"a line of its own first", "hello\r\n: hi\r\n\r\ndata: x\r\n\r\n", []string{"x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkAgainstSpec(t, []byte(tc.body))
			got, err := readAll([]byte(tc.body), sseBuffer, 2)
			if err != io.EOF || !slices.Equal(got, tc.want) {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// A body with no line of an event stream is refused, saying what it was.
func TestSSENotAnEventStream(t *testing.T) {
	answer := `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}`
	for body, want := range map[string]string{
		"<html><body>502 Bad Gateway</body></html>":                                                   `response is not an event stream: "<html><body>502 Bad Gateway</body></html>"`,
		"<!DOCTYPE html>\r\n<html>\r\n\r\n<title>Error</title>\r\n</html>":                            `response is not an event stream: "<!DOCTYPE html>\n<html>\n<title>Error</title>\n</html>"`,
		"{\n  \"error\": {\n    \"message\": \"Overloaded\",\n    \"code\": \"overloaded\"\n  }\n}\n": "an error instead of a stream: Overloaded",
		answer:         `the whole answer came at once, not as a stream: the server ignored "stream": true`,
		"Unauthorized": `response is not an event stream: "Unauthorized"`,
	} {
		checkAgainstSpec(t, []byte(body))
		_, err := readAll([]byte(body), 7, 3)
		var f *Failure
		if !errors.As(err, &f) || f.Kind != KindProtocol || f.Message != want {
			t.Errorf("%q: err = %v\nwant %s", body, err, want)
		}
	}
}

// Two bodies that are no event stream are refused before their end, which
// may be far off: JSON lines (Ollama's own API), and 64 KiB of text.
func TestSSENotAnEventStreamBeforeItsEnd(t *testing.T) {
	streaming := iotest.ErrReader(errors.New("still streaming"))
	ndjson := `{"model":"llama3","message":{"role":"assistant","content":"The"},"done":false}` + "\n"
	text := strings.Repeat("the answer goes on and on\n", 3000)
	for body, want := range map[string]string{
		ndjson: "response is not an event stream: " + snippet([]byte(strings.TrimSpace(ndjson))),
		text:   "response is not an event stream: " + snippet([]byte(text)),
	} {
		_, err := newSSEReader(io.MultiReader(strings.NewReader(body), streaming)).next()
		if f, ok := errors.AsType[*Failure](err); !ok || f.Kind != KindProtocol || f.Message != want {
			t.Errorf("%.40q: err = %v\nwant %s", body, err, want)
		}
	}
}

// A broken connection dispatches nothing it had not finished.
func TestSSEBrokenConnection(t *testing.T) {
	broken := errors.New("connection reset")
	r := newSSEReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(broken)))
	if data, err := r.next(); string(data) != "a" || err != nil {
		t.Fatalf("first: %q, %v", data, err)
	}
	if data, err := r.next(); !errors.Is(err, broken) {
		t.Fatalf("second: %q, %v; want the read error", data, err)
	}
}

// FuzzSSEReader: sseReader gives the events specEvents does, however the body
// is cut into reads and however small its buffer.
func FuzzSSEReader(f *testing.F) {
	for _, body := range []string{
		"data: {\"a\":1}\n\ndata: [DONE]\n\n",
		"\uFEFFdata:x\r\rdata: y\r\n\r\n",
		"data: a\ndata\ndata:  b\n\n: c\nid: 1\nretry: x\nevent: e\n\ndata: z",
		"\r\ndata: a\r",
		"data: 0123456789abcdef0123456789\n\n",
		"x: y\n\n",
		"x-trace: 1\r\ndata: a\r\n\r\n",
	} {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkAgainstSpec(t, body)
	})
}

// Reading more of a long line must not lose what came before it.
func TestSSELongLine(t *testing.T) {
	long := strings.Repeat("x", 3*sseBuffer+5)
	body := "data: " + long + "\r\n\r\ndata: short\r\n\r\n"
	checkAgainstSpec(t, []byte(body))
	got, err := readAll([]byte(body), sseBuffer, 1000)
	if err != io.EOF || len(got) != 2 || got[0] != long || got[1] != "short" {
		t.Fatalf("got %d events, %v", len(got), err)
	}
}
