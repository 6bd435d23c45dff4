package probes

import (
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"strings"
)

// A stream is asked for uncompressed (Accept-Encoding: identity): a
// compressor holds tokens back until it flushes. Some proxies in front of
// a provider compress event streams all the same, flushing with each
// event. Go's transport leaves such a body compressed (race.go disables its
// own gzip, which would ask for it), so it is decoded here, as any browser
// would, and its events are timed as they come out of the decompressor: a
// proxy that flushes late shows as its late tokens, which is what a user
// behind it sees. A coding the standard library has no reader for is
// refused by name instead of read as a stream of bytes.

// decodedBody is resp's body as the server meant it, by its
// Content-Encoding. The decompressor is made on the first read, so a
// server that sends its headers and then nothing is cut by the stall and
// first-token limits, as an uncompressed one is.
func decodedBody(resp *http.Response) (io.Reader, *Failure) {
	coding := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	switch coding {
	case "", "identity":
		return resp.Body, nil
	case "gzip", "x-gzip":
		return &lazyDecoder{coding: coding, body: resp.Body, open: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }}, nil
	case "deflate": // HTTP's "deflate" is the zlib format (RFC 9110, 8.4.1.2)
		return &lazyDecoder{coding: coding, body: resp.Body, open: func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) }}, nil
	}
	return nil, &Failure{Kind: KindProtocol, Message: "the server compressed the answer (Content-Encoding: " + coding + ") though tpsrace asked for it uncompressed; only gzip and deflate are read"}
}

// lazyDecoder opens its decompressor over body at the first read, and
// says so when what it reads is not the coding the server named.
type lazyDecoder struct {
	coding string
	body   io.Reader
	open   func(io.Reader) (io.Reader, error)
	r      io.Reader
}

func (d *lazyDecoder) Read(p []byte) (n int, err error) {
	if d.r == nil {
		d.r, err = d.open(d.body)
	}
	if err == nil {
		n, err = d.r.Read(p)
	}
	var corrupt flate.CorruptInputError
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, zlib.ErrHeader) ||
		errors.Is(err, zlib.ErrChecksum) || errors.Is(err, zlib.ErrDictionary) || errors.As(err, &corrupt) {
		err = &Failure{Kind: KindProtocol, Message: "the answer is not the " + d.coding + " data its Content-Encoding says: " + err.Error()}
	}
	return n, err
}
