package sim

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"net"
	"net/http"
)

// proxied is the part of a proxy's response that a fault which cuts the
// connection (fault=close) reaches through: after it, nothing more is
// written.
type proxied struct {
	http.ResponseWriter
	hijacked bool
}

// Hijack hands the connection to a fault that cuts it.
func (p *proxied) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	p.hijacked = true
	return http.NewResponseController(p.ResponseWriter).Hijack()
}

// Unwrap lets http.ResponseController reach the rest (deadlines).
func (p *proxied) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// gzipResponse is a stream compressed as some proxies in front of a
// provider compress event streams (gzip=1): Content-Encoding: gzip, though
// the client asked for none, flushed with every flush of the stream, so
// each event leaves when it would uncompressed.
type gzipResponse struct {
	proxied
	gz *gzip.Writer
	rc *http.ResponseController
}

func newGzipResponse(w http.ResponseWriter) *gzipResponse {
	w.Header().Set("Content-Encoding", "gzip")
	return &gzipResponse{proxied: proxied{ResponseWriter: w}, gz: gzip.NewWriter(w), rc: http.NewResponseController(w)}
}

func (z *gzipResponse) Write(b []byte) (int, error) { return z.gz.Write(b) }

// FlushError ends the compressor's block, then sends it.
func (z *gzipResponse) FlushError() error {
	if err := z.gz.Flush(); err != nil {
		return err
	}
	return z.rc.Flush()
}

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
	proxied
	held bytes.Buffer
}

func (h *heldResponse) Write(b []byte) (int, error) { return h.held.Write(b) }

// FlushError holds the events back: they leave at close.
func (h *heldResponse) FlushError() error { return nil }

// close sends everything held, unless a fault took the connection.
func (h *heldResponse) close() {
	if !h.hijacked {
		_, _ = h.ResponseWriter.Write(h.held.Bytes())
	}
}
