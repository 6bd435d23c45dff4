package probes

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tpsrace/config"
	"tpsrace/testenv"
)

// sseField is one line of a recorded event: a field and its value, or a
// comment.
type sseField struct {
	name, value string
	comment     bool
}

// recordedEvents reads a recorded LF-framed body into its events' lines.
func recordedEvents(body string) [][]sseField {
	var events [][]sseField
	var ev []sseField
	for _, line := range strings.Split(body, "\n") {
		switch {
		case line == "":
			if ev != nil {
				events, ev = append(events, ev), nil
			}
		case line[0] == ':':
			ev = append(ev, sseField{value: line[1:], comment: true})
		default:
			name, value, _ := strings.Cut(line, ":")
			ev = append(ev, sseField{name: name, value: strings.TrimPrefix(value, " ")})
		}
	}
	if ev != nil {
		events = append(events, ev)
	}
	return events
}

// reframing is one way the event-stream rules allow to write the same events.
// pad changes the data without changing its JSON: white space around a
// chunk, and (split) empty data lines ("data", no colon) inside it, which
// join as the newlines JSON skips.
type reframing struct {
	eol                            string
	bom, split, fields, noEnd, pad bool
}

// frame writes events as r says.
func (r reframing) frame(events [][]sseField) string {
	var b strings.Builder
	if r.bom {
		b.WriteString("\uFEFF")
	}
	for i, ev := range events {
		if r.fields { // a field the rules do not know comes first: they ignore it
			fmt.Fprintf(&b, "x-seq: %d%sid: %d%s: note%s", i, r.eol, i, r.eol, r.eol)
		}
		for _, f := range ev {
			switch {
			case f.comment:
				b.WriteString(":" + f.value + r.eol)
			case f.name == "data" && r.split:
				for k, part := range splitJSON(f.value) {
					if k > 0 && r.fields {
						b.WriteString(": between" + r.eol)
					}
					if k > 0 && r.pad && strings.HasPrefix(f.value, "{") {
						b.WriteString("data" + r.eol) // a field without a colon: an empty line of data
					}
					b.WriteString("data:" + part + r.eol) // no space: a part may start with one
				}
			case f.name == "data" && r.pad && strings.HasPrefix(f.value, "{"):
				b.WriteString("data:  \t" + f.value + " \t " + r.eol) // the first space dropped, the rest JSON's white space
			default:
				b.WriteString(f.name + ": " + f.value + r.eol)
			}
		}
		if r.fields {
			b.WriteString("retry: 3000" + r.eol)
		}
		if i < len(events)-1 || !r.noEnd {
			b.WriteString(r.eol)
		}
	}
	return b.String()
}

// splitJSON cuts a JSON object's text at every place outside a string where
// a newline is white space (after , : { [); other data ([DONE]) stays whole.
func splitJSON(s string) []string {
	if !strings.HasPrefix(s, "{") {
		return []string{s}
	}
	var parts []string
	start := 0
	for _, i := range structuralChars([]byte(s)) {
		if strings.IndexByte(",:{[", s[i]) >= 0 {
			parts, start = append(parts, s[start:i+1]), i+1
		}
	}
	return append(parts, s[start:])
}

// structuralChars are the indexes of JSON text b's braces, brackets, commas
// and colons outside strings: JSON allows white space on either side of each.
func structuralChars(b []byte) []int {
	var at []int
	inString, escaped := false, false
	for i, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && strings.IndexByte("{}[],:", c) >= 0:
			at = append(at, i)
		}
	}
	return at
}

var reframings = map[string]reframing{
	"bom":                         {eol: "\n", bom: true},
	"cr":                          {eol: "\r"},
	"crlf":                        {eol: "\r\n"},
	"split data":                  {eol: "\n", split: true},
	"fields and comments":         {eol: "\n", fields: true},
	"no final blank line":         {eol: "\n", noEnd: true},
	"all of them, cr":             {eol: "\r", bom: true, split: true, fields: true, noEnd: true},
	"all of them, crlf":           {eol: "\r\n", bom: true, split: true, fields: true, noEnd: true},
	"split and fields, crlf":      {eol: "\r\n", split: true, fields: true},
	"split, no final line, cr":    {eol: "\r", split: true, noEnd: true},
	"white space around the JSON": {eol: "\n", pad: true},
	"split with empty data lines": {eol: "\r\n", split: true, pad: true, fields: true},
}

// figures is what a race measures of a stream, but for times.
type figures struct {
	Content, Reasoning string
	EventTokens        []int
	O200k              int
	Usage              *Usage
	Finish             string
	Served             Served
	Timings            *ServerTimings
	Tools              []ToolDelta
	Failure            string
}

func figuresOf(res Result) figures {
	f := figures{O200k: res.O200kTokens, Usage: res.Usage, Finish: res.FinishReason, Served: res.Served, Timings: res.Timings}
	for e := range res.Events.Values() {
		f.Content += e.Content
		f.Reasoning += e.Reasoning
		f.EventTokens = append(f.EventTokens, e.Tokens)
	}
	for _, d := range res.ToolDeltas {
		d.At = 0
		f.Tools = append(f.Tools, d)
	}
	if res.Err != nil {
		f.Failure = res.Err.Error()
	}
	return f
}

// recordedStreams are the recorded streams' bodies (the error bodies left
// out), by name, in the order of their files.
func recordedStreams(t *testing.T) (names []string, bodies map[string][]byte) {
	files, err := filepath.Glob(filepath.Join(testenv.Require(t, "fixtures"), "sse", "*.sse"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded streams: %v", err)
	}
	bodies = map[string][]byte{}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sse")
		if strings.Contains(name, "http4") { // an error body, not a stream
			continue
		}
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		names, bodies[name] = append(names, name), body
	}
	return names, bodies
}

// Every recorded stream, re-framed every way the rules allow and served
// over loopback, gives the figures its LF original gives.
func TestRecordedStreamsUnderEveryFraming(t *testing.T) {
	names, bodies := recordedStreams(t)
	for _, name := range names {
		body := bodies[name]
		t.Run(name, func(t *testing.T) {
			race := func(body string) figures {
				return figuresOf(raceOne(t, config.Provider{BaseURL: replay(t, 0, []byte(body)), APIKey: "sk-test"}))
			}
			want := race(string(body))
			if want.Content == "" && want.Reasoning == "" && len(want.Tools) == 0 {
				t.Fatalf("the original gave nothing: %+v", want)
			}
			events := recordedEvents(string(body))
			for name, r := range reframings {
				if got := race(r.frame(events)); !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
				}
			}
		})
	}
}
