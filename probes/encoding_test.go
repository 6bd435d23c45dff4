package probes

import (
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"tpsrace/config"
)

// serveEncoded serves body under Content-Encoding coding, compressed by
// compress (nil: sent as it is), in small writes each flushed through the
// compressor as a proxy that compresses event streams flushes, and
// reports the Accept-Encoding each request carried.
func serveEncoded(t *testing.T, status int, coding string, compress func(io.Writer) io.WriteCloser, body []byte, accepted *string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*accepted = r.Header.Get("Accept-Encoding")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", coding)
		w.WriteHeader(status)
		out := io.WriteCloser(nopCloser{w})
		if compress != nil {
			out = compress(w)
		}
		for len(body) > 0 {
			n := min(len(body), 97)
			out.Write(body[:n])
			if f, ok := out.(interface{ Flush() error }); ok {
				f.Flush()
			}
			w.(http.Flusher).Flush()
			body = body[n:]
		}
		out.Close()
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

var gzipped = func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) }

// A stream is asked for uncompressed; one a proxy compresses anyway, with
// gzip or deflate, gives the figures the uncompressed stream gives.
func TestCompressedStreamsAreRead(t *testing.T) {
	names, bodies := recordedStreams(t)
	codings := map[string]func(io.Writer) io.WriteCloser{
		"gzip":    gzipped,
		"x-gzip":  gzipped,
		"deflate": func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
	}
	for _, name := range names {
		body := bodies[name]
		var accepted string
		race := func(coding string, compress func(io.Writer) io.WriteCloser) figures {
			url := serveEncoded(t, http.StatusOK, coding, compress, body, &accepted)
			return figuresOf(raceOne(t, config.Provider{BaseURL: url, APIKey: "sk-test"}))
		}
		want := race("", nil)
		if accepted != "identity" {
			t.Fatalf("the request's Accept-Encoding is %q, want identity", accepted)
		}
		for coding, compress := range codings {
			if got := race(coding, compress); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s:\n got %+v\nwant %+v", name, coding, got, want)
			}
		}
	}
}

// A coding tpsrace cannot read, or data that is not the coding named, is
// a failure that says so; an error status says its status whatever the
// coding of its body.
func TestUnreadableCodingsSaySo(t *testing.T) {
	stream := []byte("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n")
	for _, tc := range []struct {
		name, coding string
		status       int
		compress     func(io.Writer) io.WriteCloser
		kind, want   string
	}{
		{"brotli", "br", http.StatusOK, nil, KindProtocol, "(Content-Encoding: br) though tpsrace asked for it uncompressed"},
		{"named gzip, sent plain", "gzip", http.StatusOK, nil, KindProtocol, "not the gzip data its Content-Encoding says: gzip: invalid header"},
		{"an error status in brotli", "br", http.StatusTooManyRequests, nil, KindHTTP, "429"},
		{"an error status in gzip", "gzip", http.StatusTooManyRequests, gzipped, KindHTTP, "429"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var accepted string
			body := stream
			if tc.status != http.StatusOK {
				body = []byte(`{"error":{"message":"Slow down"}}`)
			}
			url := serveEncoded(t, tc.status, tc.coding, tc.compress, body, &accepted)
			res := raceOne(t, config.Provider{BaseURL: url, APIKey: "sk-test"})
			f, _ := res.Err.(*Failure)
			if f == nil || f.Kind != tc.kind || !strings.Contains(f.Error(), tc.want) {
				t.Fatalf("got %#v, want a %s failure that says %q", res.Err, tc.kind, tc.want)
			}
			if tc.compress != nil && !strings.Contains(f.Error(), "Slow down") {
				t.Errorf("the decoded error body's reason is missing: %q", f.Error())
			}
		})
	}
}
