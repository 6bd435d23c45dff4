package probes_test

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/testenv"
)

// A server may close a kept-alive connection just as the next race sends on
// it (llama-server does, now and then): that request never reached it, and
// goes again on a new connection instead of failing the stream with "EOF".
// The server here answers each connection's first request and closes the
// connection on its second, unanswered.
func TestAConnectionClosedWhileIdleIsRedialled(t *testing.T) {
	var keySent atomic.Bool // the idempotency mark stays on this side of the wire
	url := rawServer(t, func(conn net.Conn, r *bufio.Reader) {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		io.Copy(io.Discard, req.Body)
		if _, ok := req.Header["Idempotency-Key"]; ok {
			keySent.Store(true)
		}
		fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(rawStream), rawStream)
		http.ReadRequest(r) // the next request on this connection: hang up without an answer
	})
	clients := &probes.Clients{}
	defer clients.Close()
	race := probes.Race{
		Providers: []config.Provider{{Name: "a", BaseURL: url, Model: "m", Timeout: config.DefaultTimeouts}},
		Request:   probes.Request{Prompt: "hi", MaxTokens: 5}, Clients: clients,
	}
	for run := 1; run <= 2; run++ {
		r := race.Run(context.Background(), nil)[0][0]
		if !r.OK() {
			t.Fatalf("race %d: %v", run, r.Err)
		}
		if dialed := r.Phases.Connected > 0; !dialed {
			t.Errorf("race %d: no connection dialed, want a new one each race (the server hangs up the old)", run)
		}
	}
	if keySent.Load() {
		t.Error("an Idempotency-Key header went to the server")
	}
}

// A body's end may arrive just after data: [DONE] (a chunked body's last
// chunk, in its own packet). The stream has ended at [DONE], but the body
// is read to its end before it is closed, so the connection serves the
// provider's next race instead of being dialled again (which would add
// DNS/TCP/TLS to that race's TTFT and flag it cold_connection). A server
// that never ends its body loses its connection after drainLimit, and the
// wait counts in no figure.
func TestTheBodyEndAfterDoneKeepsTheConnection(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tail   time.Duration // from [DONE] to the body's end; 0: never
		reused bool
	}{
		{"end 30ms after [DONE]", 30 * time.Millisecond, true},
		{"no end", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := chunkedServer(t, tc.tail)
			clients := &probes.Clients{}
			defer clients.Close()
			race := probes.Race{
				Providers: []config.Provider{{Name: "a", BaseURL: url, Model: "m", Timeout: config.DefaultTimeouts}},
				Request:   probes.Request{Prompt: "hi", MaxTokens: 5}, Clients: clients,
			}
			// When a race ends is a timing. So is a body's end read within
			// drainLimit of [DONE] (30 ms after it, here): a loaded client
			// may read it later and close the connection, so race 2 dialling
			// after a tail is a miss that load can explain; a connection
			// kept without its body's end is a property, never retried.
			testenv.Timed(t, func(a *testenv.Attempt) {
				for run := 1; run <= 2; run++ {
					r := race.Run(context.Background(), nil)[0][0]
					if !r.OK() {
						t.Fatalf("race %d: %v", run, r.Err)
					}
					a.Load = cmp.Or(a.Load, metrics.Saturation(r.Load))
					if r.End >= 25*time.Millisecond {
						a.Missf("race %d ended at %v: the wait for the body's end counted", run, r.End)
					}
					switch dialed := r.Phases.Connected > 0; {
					case run == 2 && dialed && tc.reused:
						a.Missf("race 2 dialled, want the connection its body's end kept")
					case run == 2 && !dialed && !tc.reused:
						t.Fatalf("race 2 did not dial: a connection whose body never ended was kept")
					}
				}
			})
		})
	}
}

// rawStream is a whole answer: one token, the finish, [DONE].
const rawStream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n" +
	"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"

// rawServer serves each connection with serve, over plain TCP (so a test
// controls what net/http's server would not let it: when a connection is
// hung up, when a body ends); it returns the base URL.
func rawServer(t *testing.T, serve func(conn net.Conn, r *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				serve(conn, bufio.NewReader(conn))
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/v1"
}

// chunkedServer answers every request on a connection with a chunked
// stream that ends at data: [DONE], and its body's last chunk tail later
// (never when tail is 0); it returns the base URL.
func chunkedServer(t *testing.T, tail time.Duration) string {
	return rawServer(t, func(conn net.Conn, r *bufio.Reader) {
		for {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(rawStream), rawStream)
			if tail == 0 {
				io.Copy(io.Discard, r) // until the client hangs up
				return
			}
			time.Sleep(tail)
			fmt.Fprint(conn, "0\r\n\r\n")
		}
	})
}
