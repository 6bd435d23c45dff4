package sim

import (
	"compress/gzip"
	"net/http"
)

// gzipResponse is a stream compressed as some proxies in front of a
// provider compress event streams (gzip=1): Content-Encoding: gzip, though
// the client asked for none, flushed with every flush of the stream, so
// each event leaves when it would uncompressed.
type gzipResponse struct {
	http.ResponseWriter
	gz *gzip.Writer
	rc *http.ResponseController
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

// Unwrap lets http.ResponseController reach the connection (deadlines,
// the faults that cut it).
func (z *gzipResponse) Unwrap() http.ResponseWriter { return z.ResponseWriter }

// close writes the compressed stream's end.
func (z *gzipResponse) close() { _ = z.gz.Close() }
