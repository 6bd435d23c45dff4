//go:build unix

package llamacpp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
)

// TestRealLlamaServer races a real llama-server, when there is one
// ($TPSRACE_LLAMA_SERVER, or llama-server in PATH), on a tiny model made
// here: nothing is downloaded.
func TestRealLlamaServer(t *testing.T) {
	bin := os.Getenv(ServerEnv)
	if bin == "" {
		bin, _ = exec.LookPath(DefaultServer)
	}
	if bin == "" {
		t.Skip("no llama-server: set " + ServerEnv + " or put llama-server in PATH to race a real one (on a tiny generated model; nothing is downloaded)")
	}
	model := filepath.Join(t.TempDir(), "tiny-llama.gguf")
	if err := writeTinyLlama(model); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir()) // for the server's log
	p := config.Provider{
		Name: "laptop", Kind: config.KindLlamaCpp, Model: "tiny-llama", ModelPath: model, Server: bin,
		// One thread: the model needs no more, and spinning threads on a busy
		// machine slow llama.cpp down twentyfold.
		Args: []string{"-c", "2048", "--parallel", "2", "--threads", "1"}, Timeout: config.DefaultTimeouts,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	srv, err := Start(ctx, p, nil)
	if err != nil {
		t.Fatal(err) // the error holds the end of the server's log
	}
	defer srv.Stop()
	pgid := srv.process.Pid

	p.BaseURL = srv.BaseURL()
	const maxTokens = 512
	results := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "Say something.", MaxTokens: maxTokens}, Concurrency: 2}.Run(ctx, nil)
	for _, r := range results[0] {
		if !r.OK() {
			t.Fatalf("stream %d: %v (server log: %s)", r.Stream, r.Err, srv.LogPath())
		}
		f := metrics.Compute(&r, 0)
		if r.FinishReason != "length" || f.OutputTokens != maxTokens {
			t.Errorf("stream %d: finish %q after %d tokens, want \"length\" after %d: the tiny model never stops by itself", r.Stream, r.FinishReason, f.OutputTokens, maxTokens)
		}
		if !f.HasServerTPS || !f.HasOutputTPS {
			t.Errorf("stream %d: server_tps %v (%v), output_tps %v (%v): want both", r.Stream, f.ServerTPS, f.HasServerTPS, f.OutputTPS, f.HasOutputTPS)
		} else if diff := f.ServerTPS/f.OutputTPS - 1; diff > 0.05 || diff < -0.05 {
			t.Errorf("stream %d: server_tps %.0f, output_tps %.0f: %+.1f%%, want within 5%%", r.Stream, f.ServerTPS, f.OutputTPS, 100*diff)
		}
	}

	info, err := Describe(ctx, p, srv.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	if info.Model != "tiny-llama" || info.Slots != 2 || info.ContextSize <= 0 || info.Build == "" {
		t.Errorf("Describe = %+v, want model tiny-llama, 2 slots, a context size and a build", info)
	}
	t.Logf("lane: %s", info.Line())
	m, err := FetchMetrics(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if m[MetricPredictedTokens] <= 0 {
		t.Errorf("%s = %v, want the tokens generated", MetricPredictedTokens, m[MetricPredictedTokens])
	}

	began := time.Now()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took >= StopGrace {
		t.Errorf("Stop took %v: llama-server did not exit on SIGTERM", took)
	}
	assertGone(t, pgid, 0)
}
