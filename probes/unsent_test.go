package probes_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
)

// closingFirst accepts connections and resets the first one at once, before
// reading a byte of it: the server that gets the request never saw the
// first attempt.
type closingFirst struct {
	net.Listener
	accepted atomic.Int32
}

func (l *closingFirst) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil || l.accepted.Add(1) > 1 {
			return c, err
		}
		c.(*net.TCPConn).SetLinger(0) // a reset, not a polite close
		c.Close()
	}
}

// A request whose new connection closed before it was written never reached
// the server, so the stream sends it once more even without --retries
// (net/http does so only on a reused connection) and counts the retry. The
// request is larger than the sockets' buffers, so part of it is written
// before the reset: not written in full is not sent.
func TestRequestNeverSentIsSentAgain(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &closingFirst{Listener: ln}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" hello\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"))
	})}
	go srv.Serve(l)
	defer srv.Close()
	p := config.Provider{Name: "resets", Model: "m", BaseURL: "http://" + ln.Addr().String() + "/v1"}
	race := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: strings.Repeat("word ", 8<<20), MaxTokens: 10}}
	res := race.Run(context.Background(), nil)[0][0]
	if res.Err != nil || res.Retries != 1 || l.accepted.Load() != 2 {
		t.Fatalf("err %v after %d retries on %d connections, want success after 1 retry on a second connection", res.Err, res.Retries, l.accepted.Load())
	}
}
