//go:build unix

package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"tpsrace/report"
)

// SIGTERM, sent to this very process while `tpsrace watch` runs in it: the
// race in flight finishes (or, past --grace, is cancelled and written marked
// interrupted), the history is complete, Main returns 0, and no goroutine is
// left behind.
func TestWatchStopsCleanlyOnSIGTERM(t *testing.T) {
	url, events := eventCountingSim(t)
	for _, tc := range []struct {
		name, model, grace string
		interrupted        bool
	}{
		{"finishes the race in flight", "sim:ttft=10ms,tps=100,tokens=60", "10s", false},
		{"cancels the race in flight after the grace", "sim:ttft=10ms,tps=200,fault=endless", "300ms", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent(), goleak.IgnoreTopFunction("os/signal.signal_recv"))
			dir := t.TempDir()
			cfg := write(t, dir, "p.yaml", "providers:\n  - name: p\n    base_url: "+url+"\n    model: \""+tc.model+"\"\n")
			history := filepath.Join(dir, "history.jsonl")
			before := events.started() // the earlier cases' races
			logs := &logBuffer{}
			code := make(chan int, 1)
			go func() {
				code <- Main([]string{"watch", "--config", cfg, "--interval", "100ms", "--grace", tc.grace, "--metrics-addr", "127.0.0.1:0",
					"--history", history, "--probe-name", "test", "--log-format", "json"}, io.Discard, logs)
			}()
			base := strings.TrimSuffix(metricsURL(t, logs), "/metrics")
			if !tc.interrupted {
				waitRaces(t, base, 1)
			}
			// Into a race: a stream with 5 of its events sent and more to come
			// (a race takes 0.6 s), not a sleep that may fall between races.
			for deadline := time.Now().Add(30 * time.Second); !events.running(1, 5); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no race in flight within 30s (events sent %v); logs:\n%s", events.counts(), logs)
				}
			}
			inFlight := events.started() // the races begun, the one in flight the last
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			select {
			case c := <-code:
				if c != 0 {
					t.Fatalf("exit %d, want 0; logs:\n%s", c, logs)
				}
			case <-time.After(15 * time.Second):
				t.Fatalf("watch did not stop within 15s of SIGTERM; logs:\n%s", logs)
			}
			records, err := report.ReadRecords(history)
			if err != nil {
				t.Fatal(err)
			}
			// The race in flight at the signal is the history's last line.
			if len(records) != inFlight-before {
				t.Errorf("%d history lines, want %d: one per race begun, the last the one in flight at SIGTERM", len(records), inFlight-before)
			}
			last := records[len(records)-1]
			if last.Probe != "test" || last.Interrupted != tc.interrupted || len(last.Providers[0].Streams) != 1 {
				t.Errorf("last history line: probe %q, interrupted %v, %d runs; want test, %v, 1", last.Probe, last.Interrupted, len(last.Providers[0].Streams), tc.interrupted)
			}
			if r := last.Providers[0].Streams[0]; r.OutputTokens == 0 || r.Interrupted != tc.interrupted {
				t.Errorf("last run %+v: want the tokens streamed, interrupted %v", r, tc.interrupted)
			}
			if !strings.Contains(logs.String(), `"msg":"stopped"`) {
				t.Errorf("no stopped line:\n%s", logs)
			}
		})
	}
}
