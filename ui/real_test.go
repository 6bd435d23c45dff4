//go:build unix

package ui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tpsrace/config"
	"tpsrace/llamacpp"
	"tpsrace/llamacpp/llamacpptest"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// TestRealDashboard runs the tpsrace binary in tmux on a providers.yaml
// that races a real llama-server, which tpsrace spawns on the tiny model,
// next to a simulated cloud provider, with more users than the server has
// slots. The llama.cpp lane shows its model loading, then the hardware
// line with the queue note, the client's tok/s, the server's prefill and
// decode; zoomed, the memory roofline's note (in cache, where this machine
// reports a cache size) and what the server's /metrics counted; and after q
// no llama-server is left.
func TestRealDashboard(t *testing.T) {
	model := llamacpptest.Model(t)
	args := []string{"-c", "2048", "--parallel", "2", "--threads", "1"}
	if reason := llamacpp.Check(context.Background(), config.Provider{Kind: config.KindLlamaCpp, ModelPath: model, Args: args}); reason != "" {
		testenv.Missing(t, "llama-server", reason)
	}
	// The tiny model fits in any cache this machine reports (one L3
	// instance, or an AMD core's L2: docs/LLAMACPP.md); where it reports none,
	// decode is a share of the memory limit.
	box, err := llamacpp.DefaultBoxProbe().Box(model)
	if err != nil {
		t.Fatal(err)
	}
	roofline := `model fits in the CPU cache \(0\.6 MB ≤ [\d.]+ [MG]B\)`
	if box.DecodeBytes > box.CacheBytes {
		roofline = `% of this box's memory limit|bandwidth probe read low`
	}
	srv := simtest.Start(t, sim.Options{})
	dir := t.TempDir()
	yaml := fmt.Sprintf(`prompt: Say something.
max_tokens: 300
providers:
  - name: cloud
    base_url: %s
    model: sim:ttft=100ms,tps=300,tokens=300
  - name: laptop
    kind: llamacpp
    model: %s
    args: ["%s"]
`, srv.URL(), model, strings.Join(args, `", "`))
	if err := os.WriteFile(filepath.Join(dir, "providers.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	term := testenv.StartTerminal(t, testenv.Binary(t), testenv.TerminalOptions{Dir: dir, Width: 120, Height: 40, Args: []string{"--concurrency", "3"}})

	s := term.WaitScreen("the finished race", func(s string) bool { return strings.Contains(s, "faster than") })
	if w := term.Written(); !strings.Contains(w, "◌ loading") || !strings.Contains(w, "loading model…") {
		t.Errorf("the llama.cpp lane never showed its model loading; the program wrote:\n%q", w)
	}
	for _, want := range []string{`1 cloud`, `2 laptop`, `3 users > 2 slots: 1 queues on the server`, `(?s)per-user [\d,.]+ tok/s.{0,140}?prefill [\d,.]+ tok/s.{0,40}?decode [\d,.]+ tok/s`} {
		if !regexp.MustCompile(want).MatchString(s) {
			t.Errorf("no %q on the screen:\n%s", want, s)
		}
	}

	term.Keys("2") // zoom the llama.cpp lane: its whole hardware line, and the /metrics line
	s = term.WaitScreen("the server's own counts", func(s string) bool {
		return regexp.MustCompile(`llama-server /metrics: 0 busy slots · 0 deferred · 900 tokens generated at [\d,.]+ tok/s`).MatchString(s)
	})
	for _, want := range []string{`3 users > 2 slots: 1 queues on the server · tiny-llama · ctx \d+ · 2 slots · .+ · b\d+`, roofline} {
		if !regexp.MustCompile(want).MatchString(s) {
			t.Errorf("no %q on the zoomed lane:\n%s", want, s)
		}
	}

	// The server runs while the dashboard does, and is gone after q.
	running := func() bool { return exec.Command("pgrep", "-f", model).Run() == nil }
	if !running() {
		t.Fatalf("no process runs the model %s while the dashboard is up", model)
	}
	term.Quit("faster than")
	if running() {
		t.Errorf("a llama-server on %s is still running after q", model)
	}
}
