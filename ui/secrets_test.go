package ui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// The dashboard, zoomed lanes and the saved JSON never show an API key,
// even when a hostile server echoes the request headers into its error.
func TestDashboardNeverShowsTheKey(t *testing.T) {
	const canary = "sk-dash-canary-9d2e7b4c1a"
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "hi", 30, "sim:fault=echo", "sim:ttft=5ms,tps=500,tokens=30,fault=error,after=5")
	for i := range cfg.Providers {
		cfg.Providers[i].APIKey = config.Secret(canary)
		cfg.Providers[i].KeyVar = "CANARY_KEY"
	}
	dir := t.TempDir()
	tm := startProgram(t, Options{Config: cfg, Concurrency: 1, SaveDir: dir, Save: func(w io.Writer, c *config.Config, conc int, races [][][]probes.Result, _ bool) error {
		for _, race := range races {
			for _, streams := range race {
				for _, r := range streams {
					if r.Err != nil {
						io.WriteString(w, r.Err.Error()+"\n")
					}
				}
			}
		}
		return nil
	}})
	var screen bytes.Buffer
	seen := func(s string) {
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			screen.Write(b)
			return strings.Contains(screen.String(), s)
		}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	seen("no provider completed a stream") // both settled
	tm.Type("1")                           // zoom the echo lane: its whole error
	seen("REDACTED")
	tm.Type("s")
	seen("saved ")
	quit(t, tm)
	if strings.Contains(screen.String(), canary) {
		t.Error("the dashboard showed the API key")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "tpsrace-*.json"))
	if len(files) != 1 {
		t.Fatalf("saved files: %v", files)
	}
	saved, _ := os.ReadFile(files[0])
	if strings.Contains(string(saved), canary) || !strings.Contains(string(saved), "401") {
		t.Errorf("saved results: %s", saved)
	}
}
