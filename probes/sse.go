package probes

// The stream's wire framing. sse.go splits a body into events' data, by the
// WHATWG rules; chunk.go and scan.go read what each data says.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// sseReader reads a response body as server-sent events, by the rules of the
// WHATWG HTML standard ("Server-sent events", parsing an event stream), and
// returns each event's data:
//
//   - a UTF-8 byte order mark before the first field is dropped;
//   - lines end with CRLF, LF or CR, also a CR at the end of one read whose
//     LF starts the next;
//   - a blank line dispatches the event; "data" fields are joined with "\n",
//     so one event's JSON may be split over several data: lines;
//   - "field: value", "field:value" and "field" (no colon, an empty value)
//     are the same field; one space after the colon is dropped;
//   - comments (": keep-alive"), event:, id:, retry: and unknown fields are
//     read and ignored: an error event's data says it is an error itself;
//   - an event with no data field is no event.
//
// Two decisions depart from the rules, both for a benchmark client:
//
//   - The last event is dispatched even when the body ends without its
//     blank line (and a last line without its line end is a line). The rules
//     discard it, which would lose a final usage chunk or finish_reason that
//     a server wrote and then closed the connection after; every byte of
//     that event arrived, so it counts. A broken connection (any error but
//     the body's end) dispatches nothing: its partial line means nothing.
//   - A body that ends without one comment or data, event, id or retry
//     line (an HTML error page, a JSON error or a whole answer sent with
//     200) is a Failure that says what it was (notAStream), which says more
//     than a stream that ended without a token. The rules read such a body
//     as unknown fields and no event, so a stream may begin with a field of
//     its own ("x-trace: 1"). Two such bodies are refused before their end,
//     where waiting would tell no more: one whose first line is a JSON value
//     whole (JSON lines streamed, or one JSON object sent), and 64 KiB of
//     lines with no line of an event stream among them.
//
// data: [DONE] ends the stream; lines after it are not read. The data
// returned is valid until the next call. An event of one data line whose
// blank line is already read is returned as a view of the read buffer; the
// data of any other event is gathered in a buffer the stream keeps, as is a
// line longer than the read buffer (a >1 MiB event): a stream of short
// events allocates nothing after its first events.
type sseReader struct {
	src        io.Reader
	buf        []byte // the read buffer; buf[start:end] is not read yet
	start, end int
	err        error  // the read error that ended src, once it did
	long       []byte // a line longer than buf, gathered
	data       []byte // the data of the event being read, each line ended by "\n"
	hasData    bool   // a data field was read since the last dispatch
	afterCR    bool   // the last line ended with CR: an LF next belongs to it
	noCR       bool   // buf[start:end] holds no CR: a line ends at its LF
	begun      bool   // the first line was read (its byte order mark dropped)
	isStream   bool   // a comment or a data, event, id or retry line was read
	notStream  []byte // the lines read while isStream is false (notStreamYet)
	done       bool   // saw data: [DONE]
}

// sseBuffer is the read buffer of a stream: a line longer than this is
// gathered in sseReader.long instead, so a stream of short events keeps only
// this much.
const sseBuffer = 4 << 10

// notStreamKept is how much of a body that is no event stream is read to
// say what it was: an error or a whole answer, rarely longer.
const notStreamKept = 64 << 10

func newSSEReader(body io.Reader) *sseReader {
	return newSSEReaderSize(body, sseBuffer)
}

// newSSEReaderSize is newSSEReader with a read buffer of size bytes (tests
// use a few, so that lines cross reads and outgrow the buffer).
func newSSEReaderSize(body io.Reader, size int) *sseReader {
	return &sseReader{src: body, buf: make([]byte, size)}
}

var (
	byteOrderMark = []byte("\xEF\xBB\xBF")
	doneData      = []byte("[DONE]")
)

// next returns the next event's data, or io.EOF at the end of the stream.
func (r *sseReader) next() ([]byte, error) {
	for !r.done {
		line, err := r.line()
		if err != nil {
			switch {
			case !errors.Is(err, io.EOF):
			case r.hasData:
				return r.dispatch()
			case !r.isStream && len(r.notStream) > 0:
				return nil, notAStream(r.notStream)
			}
			return nil, err
		}
		if !r.begun {
			r.begun = true
			line = bytes.TrimPrefix(line, byteOrderMark)
		}
		if len(line) == 0 {
			if r.hasData {
				return r.dispatch()
			}
			continue
		}
		if line[0] == ':' { // a comment (keep-alive)
			r.isStream = true
			continue
		}
		name, value := fieldOf(line)
		switch string(name) {
		case "data":
			r.isStream = true
			// An event of one data line whose blank line is read already
			// (nearly every event) is dispatched as a view of the line.
			if !r.hasData && r.blankNext() {
				return r.dispatchData(value)
			}
			r.data = append(append(r.data, value...), '\n')
			r.hasData = true
		case "event", "id", "retry":
			r.isStream = true
		default: // a field of no meaning here, ignored
			if !r.isStream {
				if f := r.notStreamYet(line); f != nil {
					return nil, f
				}
			}
		}
	}
	return nil, io.EOF
}

// notStreamYet keeps a line of a body that has shown no line of an event
// stream yet, and refuses the body at once where its end would tell no
// more (sseReader).
func (r *sseReader) notStreamYet(line []byte) *Failure {
	first := len(r.notStream) == 0
	r.notStream = append(append(r.notStream, line...), '\n')
	if first && json.Valid(line) || len(r.notStream) >= notStreamKept {
		return notAStream(r.notStream)
	}
	return nil
}

// fieldOf splits a line that is not blank and no comment into its field's
// name and value, the one space after the colon dropped. Nearly every line
// is a "data:" line, whose split needs no search for its colon.
func fieldOf(line []byte) (name, value []byte) {
	if len(line) >= len("data:") && string(line[:len("data:")]) == "data:" {
		name, value = line[:len("data")], line[len("data:"):]
	} else {
		name, value, _ = bytes.Cut(line, []byte(":"))
	}
	if len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	return name, value
}

// dispatch ends the event being read and returns its data, without the
// last line's "\n"; data: [DONE] ends the stream instead.
func (r *sseReader) dispatch() ([]byte, error) {
	data := r.data[:len(r.data)-1]
	r.data, r.hasData = r.data[:0], false
	return r.dispatchData(data)
}

// dispatchData returns an event's data, or io.EOF for data: [DONE].
func (r *sseReader) dispatchData(data []byte) ([]byte, error) {
	if (len(data) == 0 || data[0] != '{') && bytes.Equal(bytes.TrimSpace(data), doneData) {
		r.done = true
		return nil, io.EOF
	}
	return data, nil
}

// blankNext reads the next line when it is blank and its line end is read
// already, as line would; else it reads nothing.
func (r *sseReader) blankNext() bool {
	i := r.start
	if r.afterCR && i < r.end && r.buf[i] == '\n' {
		i++
	}
	if i >= r.end || r.buf[i] != '\n' && r.buf[i] != '\r' {
		return false
	}
	r.start, r.afterCR = i+1, r.buf[i] == '\r'
	return true
}

// line returns the next line without its line end, valid until the next
// call. A last line without a line end is a line; then the error that ended
// the body: io.EOF, or any other, at once, without the partial line.
func (r *sseReader) line() ([]byte, error) {
	for {
		if r.afterCR && r.start < r.end {
			if r.buf[r.start] == '\n' {
				r.start++
			}
			r.afterCR = false
		}
		unread := r.buf[r.start:r.end]
		if i := r.lineEnd(unread); i >= 0 {
			r.start += i + 1
			r.afterCR = unread[i] == '\r'
			return r.gathered(unread[:i]), nil
		}
		if r.err != nil {
			if !errors.Is(r.err, io.EOF) || len(unread)+len(r.long) == 0 {
				return nil, r.err
			}
			r.start = r.end
			return r.gathered(unread), nil
		}
		if r.start == 0 && r.end == len(r.buf) { // a line longer than buf
			r.long = append(r.long, unread...)
			r.end = 0
		} else {
			r.end = copy(r.buf, unread)
		}
		r.start = 0
		r.fill()
	}
}

// gathered is part, after what of its line was gathered in r.long before.
func (r *sseReader) gathered(part []byte) []byte {
	if len(r.long) == 0 {
		return part
	}
	line := append(r.long, part...)
	r.long = line[:0]
	return line
}

// fill reads once into the free end of buf.
func (r *sseReader) fill() {
	for tries := 0; tries < 100; tries++ {
		n, err := r.src.Read(r.buf[r.end:])
		// One look for a CR over what the read returned, so that the
		// lines of a stream without one (most) are split at their LF by
		// one search, not two.
		r.noCR = bytes.IndexByte(r.buf[r.start:r.end+n], '\r') < 0
		r.end += n
		if err != nil {
			r.err = err
		}
		if n > 0 || err != nil {
			return
		}
	}
	r.err = io.ErrNoProgress
}

// lineEnd is the index of the first CR or LF in unread (buf[start:end]),
// or -1.
func (r *sseReader) lineEnd(unread []byte) int {
	lf := bytes.IndexByte(unread, '\n')
	if r.noCR {
		return lf
	}
	search := unread
	if lf >= 0 {
		search = unread[:lf]
	}
	if cr := bytes.IndexByte(search, '\r'); cr >= 0 {
		return cr
	}
	return lf
}
