package probes

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync/atomic"
	"time"

	"tpsrace/tokens"
)

// streamReader reads one attempt's event stream into its Result: the hot
// path of a race. An event costs a line split, a scan of its chunk (scan.go)
// and an o200k count, and allocates nothing once the stream's buffers have
// grown (TestStreamReadsWithoutAllocating): the texts it hands on are views
// of the reader's buffers until the record (Events) copies them.
type streamReader struct {
	pb         *probe
	res        *Result
	release    time.Time
	firstToken *time.Timer
	chunks     chunkScanner
	think      thinkSplitter
	// The whole answer's o200k count is kept up to date as it arrives, so
	// it is ready when the stream ends.
	answerCount, reasoningCount tokens.Counter
	// counted is the tokens of the events so far; Race.Tokens has them
	// added once a read (publish), not at every event.
	counted   int
	published int
	lastByte  atomic.Int64 // since release, stamped on every read: when the events parsed from it arrived
}

func newStreamReader(pb *probe, release time.Time, firstToken *time.Timer, res *Result) *streamReader {
	rd := &streamReader{pb: pb, res: res, release: release, firstToken: firstToken}
	rd.lastByte.Store(int64(rd.since()))
	return rd
}

func (rd *streamReader) since() time.Duration { return time.Since(rd.release) }

// arrived is when the bytes of the event being parsed arrived: the read
// that completed it. Every event of one read arrived at once, so they share
// its time: stamped as each was parsed, a burst of tool-call fragments
// read together sat microseconds apart and read as 300,000 args tok/s.
func (rd *streamReader) arrived() time.Duration { return time.Duration(rd.lastByte.Load()) }

// watchStall cancels the attempt when no byte arrives for stall. The timer
// checks the last byte's time when it fires and re-arms for the rest, so a
// read costs an atomic store, not a timer reset.
func (rd *streamReader) watchStall(stall time.Duration, cancel context.CancelCauseFunc) *time.Timer {
	var t *time.Timer
	t = time.AfterFunc(stall, func() {
		if quiet := rd.since() - time.Duration(rd.lastByte.Load()); quiet < stall {
			t.Reset(stall - quiet)
			return
		}
		cancel(stallCause{stall})
	})
	return t
}

// stallCause ends an attempt that the stall limit stopped; failure words
// it once the stream's record is whole (what it had carried).
type stallCause struct{ quiet time.Duration }

func (c stallCause) Error() string { return "stalled " + c.quiet.String() }

// stampedBody is the body as the stream reader reads it. Before each read,
// which may wait, the tokens counted since the last one are published;
// after a read that returned bytes, its time is stamped: every event parsed
// from those bytes arrived then.
type stampedBody struct {
	rd   *streamReader
	body io.Reader
}

func (b stampedBody) Read(p []byte) (int, error) {
	b.rd.publish()
	n, err := b.body.Read(p)
	if n > 0 {
		b.rd.lastByte.Store(int64(b.rd.since()))
	}
	return n, err
}

// publish adds the tokens counted since the last publish to Race.Tokens:
// the events of one read arrived at once, so their tokens are added at
// once, an atomic add a read instead of one an event (Race.Tokens is every
// stream's, a cache line the cores pass back and forth).
func (rd *streamReader) publish() {
	n := int64(rd.counted - rd.published)
	if n == 0 {
		return
	}
	rd.published = rd.counted
	if rd.pb.tokens != nil {
		rd.pb.tokens.Add(n)
	}
}

// read reads body to its end. A stream completes with data: [DONE] or a
// finish_reason; a body that ends without either broke off.
func (rd *streamReader) read(body io.Reader) error {
	defer func() {
		rd.publish()
		rd.res.O200kTokens = rd.answerCount.Total() + rd.reasoningCount.Total()
	}()
	sse := newSSEReader(stampedBody{rd, body})
	for {
		data, err := sse.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return err
			}
			rd.record(rd.think.flush())
			if rd.res.FinishReason == "" && !sse.done {
				return &Failure{Kind: KindNetwork, Message: "stream ended after " + carried(rd.res) + " without finish_reason or [DONE]"}
			}
			return nil
		}
		if blank(data) { // "data:" alone: no chunk, nothing malformed
			continue
		}
		var d delta
		if err := rd.chunks.decode(data, &rd.res.Served, &d); err != nil {
			return err
		}
		if d.Err != nil {
			return d.Err
		}
		rd.apply(&d)
	}
}

// blank reports whether data is only white space. A chunk's data starts
// with its "{", which settles it without a look at the rest.
func blank(data []byte) bool {
	return len(data) == 0 || data[0] != '{' && len(bytes.TrimSpace(data)) == 0
}

// apply records what one chunk says.
func (rd *streamReader) apply(d *delta) {
	res := rd.res
	content, reasoning := rd.think.split(d.Content)
	if d.Reasoning != "" { // a concatenation with "" is still a call, at every event
		reasoning = d.Reasoning + reasoning
	}
	rd.record(content, reasoning)
	for _, tc := range d.ToolCalls {
		tc.At = rd.arrived()
		if res.Events.Len() == 0 && len(res.ToolDeltas) == 0 {
			rd.firstToken.Stop() // a call is the answer's first token
		}
		res.ToolDeltas = append(res.ToolDeltas, tc)
		if rd.pb.emitTool != nil {
			rd.pb.emitTool(tc)
		}
	}
	if d.Usage != nil {
		res.Usage = d.Usage
	}
	if d.FinishReason != "" {
		res.FinishReason = d.FinishReason
	}
	if d.Timings != nil {
		res.Timings = d.Timings
	}
}

// record adds a text event. content and reasoning may be views of the
// reader's buffers: what is kept or handed on is the record's copy.
func (rd *streamReader) record(content, reasoning string) {
	if content == "" && reasoning == "" {
		return
	}
	// The delta's own count (the event's figure) and the whole answer's: one
	// lookup for both where the delta is a token.
	ev := Event{At: rd.arrived(), Content: content, Reasoning: reasoning, Tokens: rd.answerCount.AddCounted(content) + rd.reasoningCount.AddCounted(reasoning)}
	if rd.res.Events.Len() == 0 {
		rd.firstToken.Stop()
	}
	if sh := rd.pb.shared; sh != nil {
		sh.Append(ev)
	} else {
		rd.res.Events.Append(ev)
	}
	rd.counted += ev.Tokens
}
