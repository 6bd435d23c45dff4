package cli

import (
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"tpsrace/sim"
	"tpsrace/testenv"
)

// Every cloud provider is HTTPS, and Go speaks HTTP/2 to it: the streams of
// a provider share one connection. The real binary races the simulator
// behind TLS and HTTP/2 on loopback (trusted through SSL_CERT_FILE, as a
// user trusts a server with its own CA): every stream completes over
// HTTP/2, and each stream's connection phases read in the order they
// happen, although the streams of a cold race each dial and all go out on
// the first connection ready (probes' attempt.phases). With --warm no
// stream dials. Without the certificate trusted, the failure says what to
// do, and a stream the server resets says so.
func TestRaceOverTLSAndHTTP2(t *testing.T) {
	bin := testenv.Binary(t)
	var overHTTP2, requests atomic.Int64
	handler := sim.NewHandler(sim.Options{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			requests.Add(1)
			if r.ProtoMajor == 2 {
				overHTTP2.Add(1)
			}
		}
		handler.ServeHTTP(w, r)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusted run's refused handshakes
	srv.StartTLS()
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	ca := write(t, dir, "ca.pem", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: vllm-lan\n    base_url: "+srv.URL+"/v1\n    model: \"sim:ttft=20ms,tps=400,tokens=40\"\n")
	bench := func(env string, args ...string) (string, string, error) {
		cmd := exec.Command(bin, append([]string{"bench", "--config", cfg, "--format", "json"}, args...)...)
		cmd.Env = append(os.Environ(), env)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	for _, warm := range []bool{false, true} {
		args := []string{"--concurrency", "8"}
		if warm {
			args = append(args, "--warm")
		}
		requests.Store(0)
		overHTTP2.Store(0)
		out, errOut, err := bench("SSL_CERT_FILE="+ca, args...)
		if err != nil {
			t.Fatalf("warm %v: %v\n%s", warm, err, errOut)
		}
		if requests.Load() != 8 || overHTTP2.Load() != 8 {
			t.Errorf("warm %v: %d requests, %d over HTTP/2; want 8 over HTTP/2", warm, requests.Load(), overHTTP2.Load())
		}
		checkPhases(t, warm, out)
	}

	out, _, err := bench("SSL_CERT_FILE=" + os.DevNull) // no authority at all
	if err == nil || !strings.Contains(out, "signed by an authority this machine does not trust — for a server with its own CA") {
		t.Errorf("an untrusted certificate: %v\n%s", err, out)
	}

	// A stream the server drops mid-answer is reset (RST_STREAM), not its
	// connection: said in those words, with what it had carried.
	cfg = write(t, dir, "reset.yaml", "providers:\n  - name: reset\n    base_url: "+srv.URL+"/v1\n    model: \"sim:ttft=20ms,tps=400,tokens=40,fault=close,after=10\"\n")
	out, _, err = bench("SSL_CERT_FILE=" + ca)
	if err == nil || !strings.Contains(out, "the server reset the stream (HTTP/2 INTERNAL_ERROR) after 10 tokens") {
		t.Errorf("a stream reset: %v\n%s", err, out)
	}
}

// checkPhases checks bench's JSON of one provider's 8 streams: each
// completed, its connection phases in the order they happen, and none
// dialled after --warm.
func checkPhases(t *testing.T, warm bool, out string) {
	t.Helper()
	var doc struct {
		Providers []struct {
			Runs []struct {
				OK     bool                `json:"ok"`
				Phases map[string]*float64 `json:"phases_ms"`
			} `json:"runs"`
		} `json:"providers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Providers) != 1 || len(doc.Providers[0].Runs) != 8 {
		t.Fatalf("warm %v: %v\n%s", warm, err, out)
	}
	for i, s := range doc.Providers[0].Runs {
		if !s.OK {
			t.Errorf("warm %v: stream %d failed", warm, i)
		}
		var prev float64
		for _, phase := range []string{"connected", "tls", "wrote_request", "first_byte"} {
			at := s.Phases[phase]
			if warm && (phase == "connected" || phase == "tls") && at != nil {
				t.Errorf("stream %d dialled after --warm: %s at %.3f ms", i, phase, *at)
			}
			if at == nil {
				continue
			}
			if *at < prev {
				t.Errorf("warm %v: stream %d's phases out of order: %s at %.3f ms, after a phase at %.3f ms", warm, i, phase, *at, prev)
			}
			prev = *at
		}
	}
}
