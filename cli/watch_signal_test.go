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
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// SIGTERM, sent to this very process while `tpsrace watch` runs in it: the
// race in flight finishes (or, past --grace, is cancelled and written marked
// interrupted), the history is complete, Main returns 0, and no goroutine is
// left behind.
func TestWatchStopsCleanlyOnSIGTERM(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
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
			cfg := write(t, dir, "p.yaml", "providers:\n  - name: p\n    base_url: "+srv.URL()+"\n    model: \""+tc.model+"\"\n")
			history := filepath.Join(dir, "history.jsonl")
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
			time.Sleep(300 * time.Millisecond) // into a race (each takes ~0.6 s)
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
