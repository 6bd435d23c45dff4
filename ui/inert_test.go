package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// An error body carrying HTML and Markdown (the simulator's
// fault=body-markup) shows on the dashboard as the characters it is: the
// zoomed lane prints the tags, the link and the image syntax as text.
func TestDashboardShowsMarkupAsText(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "hi", 30, "sim:fault=body-markup", "sim:ttft=5ms,tps=500,tokens=30")
	tm := startProgram(t, Options{Config: cfg, Concurrency: 1})
	var screen bytes.Buffer
	seen := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			screen.Write(b)
			return strings.Contains(ansi.Strip(screen.String()), s)
		}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	seen("401")
	tm.Type("1") // zoom the failed lane: its whole error
	for _, s := range []string{"<script>document.title='PWNED'</script>", "[docs](javascript:alert(1))", "![p](http://127.0.0.1:9/p.png)"} {
		seen(s)
	}
	quit(t, tm)
}
