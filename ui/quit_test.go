//go:build unix

package ui

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tpsrace/recording"
	"tpsrace/sim"
	"tpsrace/testenv"
	"tpsrace/tokens"
)

// Stopping the dashboard keeps what was measured, as bench does: q, ctrl+c
// or SIGTERM in the middle of a race writes the race in flight to
// --record, marked interrupted, its streams so far kept. q exits 0 (the
// user's plain quit); ctrl+c and a signal exit 130, as bench's interrupt.
// The real binary in tmux against a simulator that holds the stream to be
// stopped mid-way: the stop comes once the server has sent that stream's
// events, never after a sleep.
func TestStopKeepsTheRaceInFlight(t *testing.T) {
	testenv.Require(t, "tmux")
	bin := testenv.Binary(t)
	for _, tc := range []struct {
		name  string
		heats int
		stop  func(tr *testenv.Terminal)
		exit  string
	}{
		{"ctrl+c in heat 2", 3, func(tr *testenv.Terminal) { tr.Keys("C-c") }, "130"},
		{"SIGTERM in the first race", 1, func(tr *testenv.Terminal) { tr.Signal(syscall.SIGTERM) }, "130"},
		{"q in the first race", 1, func(tr *testenv.Terminal) { tr.Keys("q") }, "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, held := holdingSim(t, tc.heats-1, 20)
			work := t.TempDir()
			yaml := "max_tokens: 200\nproviders:\n  - {name: held, base_url: " + url + ", model: \"sim:ttft=5ms,tps=2000,tokens=200,chunk=2\"}\n"
			if err := os.WriteFile(filepath.Join(work, "providers.yaml"), []byte(yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			tr := testenv.StartTerminal(t, bin, testenv.TerminalOptions{Dir: work, Width: 120, Height: 40, Args: []string{"--heats", strconv.Itoa(tc.heats), "--record", "d.tpsr"}})
			select {
			case <-held:
			case <-time.After(60 * time.Second):
				t.Fatalf("the stream to stop never reached the simulator's hold:\n%s", tr.Screen())
			}
			// The server has sent the held stream's first events; the stop
			// comes once the dashboard has them too, so the race in flight
			// has something to keep.
			tr.WaitScreen("the held stream's tokens", func(s string) bool { return heldTokens.MatchString(s) })
			tc.stop(tr)
			if code := tr.ExitCode(); code != tc.exit {
				t.Fatalf("exit %s, want %s:\n%s", code, tc.exit, tr.Screen())
			}
			rec, err := recording.Open(filepath.Join(work, "d.tpsr"))
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Races) != tc.heats || !rec.Interrupted {
				t.Fatalf("%d races, interrupted %v: want %d, the last interrupted", len(rec.Races), rec.Interrupted, tc.heats)
			}
			for i, race := range rec.Races {
				r := race.Results[0][0]
				last := i == len(rec.Races)-1
				if r.Interrupted != last || (last && r.Events.Len() == 0) || (!last && r.Err != nil) {
					t.Errorf("race %d: interrupted %v, %d events, err %v: want the earlier heats whole and the last interrupted with its events",
						i+1, r.Interrupted, r.Events.Len(), r.Err)
				}
			}
		})
	}
}

// heldTokens is the held lane's figures line once tokens have arrived: "TTFT 6ms … 38 tok".
var heldTokens = regexp.MustCompile(`TTFT \S+ .* [1-9][0-9]* tok\b`)

// holdingSim serves the simulator: the first free chat requests stream
// whole; each later one stops after hold SSE events, until the client
// goes, and says so on the returned channel.
func holdingSim(t *testing.T, free, hold int) (url string, held <-chan struct{}) {
	t.Helper()
	tokens.Warm() // as sim.Start does
	h := sim.NewHandler(sim.Options{})
	reached := make(chan struct{}, 16)
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		requests++
		n := requests
		mu.Unlock()
		if n <= free {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(&holdingWriter{ResponseWriter: w, hold: hold, reached: reached, gone: r.Context().Done()}, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", reached
}

// holdingWriter passes a response through until hold events have gone
// (each flushed: the simulator flushes every event), then holds the next
// write until the client has gone.
type holdingWriter struct {
	http.ResponseWriter
	hold, sent int
	reached    chan<- struct{}
	gone       <-chan struct{}
}

func (w *holdingWriter) Write(b []byte) (int, error) {
	if w.sent >= w.hold {
		w.reached <- struct{}{}
		<-w.gone
		return 0, http.ErrHandlerTimeout
	}
	w.sent += bytes.Count(b, []byte("data:"))
	return w.ResponseWriter.Write(b)
}

func (w *holdingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
