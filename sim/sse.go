package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// sseWriter writes one response's server-sent events. Events are buffered
// and flushed before every wait, so events already due leave together. The
// first write error sticks: every later call does nothing and waits fail.
type sseWriter struct {
	w         http.ResponseWriter
	rc        *http.ResponseController
	prefix    string // "data: ", or "data:" with nospace
	framing   Framing
	keepalive time.Duration // 0 = no keep-alive comments
	events    int           // events written, for framing's id: field
	begun     bool          // the body's first byte was written
	last      bool          // the next event is the body's last (lastEvent)
	lastWrite time.Time     // when the latest line was due, for keep-alives
	alarm
	buf   bytes.Buffer
	frame []byte // the framed event, reused
	enc   *json.Encoder
	err   error
}

func newSSEWriter(w http.ResponseWriter, s Schedule, start time.Time) *sseWriter {
	out := &sseWriter{w: w, rc: http.NewResponseController(w), prefix: "data: ", framing: s.Framing, keepalive: s.Keepalive, lastWrite: start}
	if s.NoSpace {
		out.prefix = "data:"
	}
	out.enc = json.NewEncoder(&out.buf)
	out.enc.SetEscapeHTML(false) // "<think>" stays as it is
	return out
}

// data writes v as one "data:" event.
func (out *sseWriter) data(v any) {
	out.buf.Reset()
	if err := out.enc.Encode(v); err != nil {
		panic("sim: " + err.Error()) // only our own types are written
	}
	out.event(bytes.TrimSuffix(out.buf.Bytes(), []byte("\n"))) // Encode ends the line
}

// rawData writes payload as one "data:" event, unchecked.
func (out *sseWriter) rawData(payload string) { out.event([]byte(payload)) }

// event writes one event, framed as the schedule's framing says.
func (out *sseWriter) event(payload []byte) {
	out.events++
	out.write(out.framing.appendEvent(out.frame[:0], out.prefix, payload, out.events, out.last))
}

// lastEvent marks the next event as the body's last (framing noend).
func (out *sseWriter) lastEvent() { out.last = true }

// line writes one line that is not data (event: error, a comment).
func (out *sseWriter) line(s string) { out.write([]byte(s + out.framing.lineEnd())) }

func (out *sseWriter) write(b []byte) {
	if !out.begun && out.framing.BOM && out.err == nil {
		_, out.err = out.w.Write([]byte("\uFEFF"))
	}
	out.begun = true
	if out.err == nil {
		_, out.err = out.w.Write(b)
	}
}

func (out *sseWriter) flush() {
	if out.err == nil {
		out.err = out.rc.Flush()
	}
}

// waitUntil flushes, then sleeps until t, writing a keep-alive comment after
// every keepalive of silence. It returns at once, without flushing, when t
// has passed, and false when the request ended or a write failed.
func (out *sseWriter) waitUntil(ctx context.Context, t time.Time) bool {
	if out.err != nil || ctx.Err() != nil {
		return false
	}
	for {
		wake := t
		if ka := out.lastWrite.Add(out.keepalive); out.keepalive > 0 && ka.Before(t) {
			wake = ka
		}
		if time.Until(wake) > 0 {
			out.flush()
			if !out.sleepUntil(ctx, wake) {
				return false
			}
		}
		out.lastWrite = wake
		if wake.Equal(t) {
			return out.err == nil
		}
		out.line(": keep-alive")
		out.line("")
	}
}

// hold keeps the response open (with keep-alives, if asked) until the
// request ends.
func (out *sseWriter) hold(ctx context.Context) {
	out.waitUntil(ctx, time.Now().AddDate(100, 0, 0))
}

// alarm sleeps until absolute times, reusing one timer.
type alarm struct{ timer *time.Timer }

// sleepUntil returns true at t, or false as soon as ctx ends.
func (a *alarm) sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if a.timer == nil {
		a.timer = time.NewTimer(d)
	} else {
		a.timer.Reset(d)
	}
	select {
	case <-a.timer.C:
		return true
	case <-ctx.Done():
		a.timer.Stop()
		return false
	}
}
