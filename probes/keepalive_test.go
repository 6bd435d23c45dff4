package probes_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
)

// A server may close a kept-alive connection just as the next race sends on
// it (llama-server does, now and then): that request never reached it, and
// goes again on a new connection instead of failing the stream with "EOF".
// The server here answers each connection's first request and closes the
// connection on its second, unanswered.
func TestAConnectionClosedWhileIdleIsRedialled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	const stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	var keySent atomic.Bool // the idempotency mark stays on this side of the wire
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r := bufio.NewReader(conn)
				req, err := http.ReadRequest(r)
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				if _, ok := req.Header["Idempotency-Key"]; ok {
					keySent.Store(true)
				}
				fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(stream), stream)
				http.ReadRequest(r) // the next request on this connection: hang up without an answer
			}()
		}
	}()
	clients := &probes.Clients{}
	defer clients.Close()
	race := probes.Race{
		Providers: []config.Provider{{Name: "a", BaseURL: "http://" + ln.Addr().String() + "/v1", Model: "m", Timeout: config.DefaultTimeouts}},
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
