package sim

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"net"
	"net/http"
)

// gzipResponse is a stream compressed as some proxies in front of a
// provider compress event streams (gzip=1): Content-Encoding: gzip, though
// the client asked for none, flushed with every flush of the stream, so
// each event leaves when it would uncompressed.
type gzipResponse struct {
	http.ResponseWriter
	gz       *gzip.Writer
	rc       *http.ResponseController
	hijacked bool // fault=close took the connection: nothing more is written
}

func newGzipResponse(w http.ResponseWriter) *gzipResponse {
	w.Header().Set("Content-Encoding", "gzip")
	return &gzipResponse{ResponseWriter: w, gz: gzip.NewWriter(w), rc: http.NewResponseController(w)}
}

func (z *gzipResponse) Write(b []byte) (int, error) { return z.gz.Write(b) }

// FlushError ends the compressor's block, then sends it.
func (z *gzipResponse) FlushError() error {
	if err := z.gz.Flush(); err != nil {
		return err
	}
	return z.rc.Flush()
}

// Hijack hands the connection to a fault that cuts it (fault=close).
func (z *gzipResponse) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	z.hijacked = true
	return z.rc.Hijack()
}

// Unwrap lets http.ResponseController reach the rest (deadlines).
func (z *gzipResponse) Unwrap() http.ResponseWriter { return z.ResponseWriter }

// close writes the compressed stream's end, unless a fault took the
// connection.
func (z *gzipResponse) close() {
	if !z.hijacked {
		_ = z.gz.Close()
	}
}

// heldResponse is a stream a buffering proxy holds back (buffered=1): every
// event is kept until the answer ends, then sent at once, as a proxy that
// buffers whole responses (nginx's proxy_buffering for a short answer)
// sends it. The schedule runs as ever; only its delivery waits.
type heldResponse struct {
	http.ResponseWriter
	held     bytes.Buffer
	hijacked bool
}

func (h *heldResponse) Write(b []byte) (int, error) { return h.held.Write(b) }

// FlushError holds the events back: they leave at close.
func (h *heldResponse) FlushError() error { return nil }

func (h *heldResponse) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h.hijacked = true
	return http.NewResponseController(h.ResponseWriter).Hijack()
}

func (h *heldResponse) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// close sends everything held, unless a fault took the connection.
func (h *heldResponse) close() {
	if !h.hijacked {
		_, _ = h.ResponseWriter.Write(h.held.Bytes())
	}
}
