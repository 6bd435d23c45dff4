//go:build unix

package llamacpp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
)

// spawnProvider is a spawn-mode entry served by the fake llama-server,
// which takes args; its model name picks the simulator's schedule.
func spawnProvider(t *testing.T, args ...string) config.Provider {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir()) // Start's log file goes there, and away with the test
	return config.Provider{
		Name: "laptop", Kind: config.KindLlamaCpp, Model: "sim:ttft=20ms,tps=1000,tokens=50,timings=1",
		ModelPath: ggufStub(t), Server: fakeServer, Args: args, Timeout: config.DefaultTimeouts,
	}
}

// pidFile names the file where the fake writes "PID CHILDPID".
func pidFile(t *testing.T) string { return filepath.Join(t.TempDir(), "pids") }

func readPIDs(t *testing.T, path string) (pid, child int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the fake llama-server wrote no pid file: %v", err)
	}
	if _, err := fmt.Sscan(string(data), &pid, &child); err != nil {
		t.Fatalf("pid file %q: %v", data, err)
	}
	return pid, child
}

// assertGone fails unless no process is left in the process group pgid
// (the server's pid) and, when not 0, the process pid is gone too.
func assertGone(t *testing.T, pgid, pid int) {
	t.Helper()
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d: kill(-pgid, 0) = %v, want ESRCH: a llama-server is left running", pgid, err)
	}
	if pid == 0 {
		return
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process %d (started by the server): kill(pid, 0) = %v, want ESRCH", pid, err)
	}
}

func TestStartRaceStop(t *testing.T) {
	pids := pidFile(t)
	p := spawnProvider(t, "--parallel", "4", "-ngl", "99", "--fake-load", "500ms", "--fake-gpu", "NVIDIA GeForce RTX 4090", "--fake-pidfile", pids)
	ctx := context.Background()
	var progress []string // Start calls it from this goroutine
	srv, err := Start(ctx, p, func(s string) { progress = append(progress, s) })
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	pid, _ := readPIDs(t, pids)

	if len(progress) == 0 {
		t.Error("progress was never called while the model loaded")
	}
	for _, s := range progress {
		if !regexp.MustCompile(`^loading model… \d+\.\ds$`).MatchString(s) {
			t.Errorf("progress %q, want \"loading model… 0.3s\"", s)
		}
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+/v1$`).MatchString(srv.BaseURL()) {
		t.Errorf("BaseURL = %q, want http://127.0.0.1:PORT/v1", srv.BaseURL())
	}
	port := strings.TrimSuffix(strings.TrimPrefix(srv.BaseURL(), "http://127.0.0.1:"), "/v1")
	log, err := os.ReadFile(srv.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := "command line: -m " + p.ModelPath + " --host 127.0.0.1 --port " + port + " --metrics --parallel 4 -ngl 99 "
	if !strings.Contains(string(log), wantArgs) {
		t.Errorf("log:\n%s\nwant the command line %q", log, wantArgs)
	}

	p.BaseURL = srv.BaseURL()
	results := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "Say something.", MaxTokens: 200}, Concurrency: 2}.Run(ctx, nil)
	predicted := 0
	for _, r := range results[0] {
		if !r.OK() {
			t.Fatalf("stream %d: %v", r.Stream, r.Err)
		}
		if f := metrics.Compute(&r, 0); !f.HasServerTPS || f.OutputTokens != 50 {
			t.Errorf("stream %d: %d tokens, server_tps %v (%v); want 50 tokens and the server's timings", r.Stream, f.OutputTokens, f.ServerTPS, f.HasServerTPS)
		}
		predicted += r.Usage.CompletionTokens
	}

	info, err := Describe(ctx, p, srv.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	if info.Slots != 4 || info.GPU != "NVIDIA GeForce RTX 4090" {
		t.Errorf("Describe = %+v, want 4 slots (--parallel 4) and the GPU of the log", info)
	}
	if note := QueueNote(2, info.Slots); note != "" {
		t.Errorf("QueueNote(2, 4) = %q, want none", note)
	}
	m, err := FetchMetrics(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if m[MetricPredictedTokens] != float64(predicted) {
		t.Errorf("%s = %v, want %d", MetricPredictedTokens, m[MetricPredictedTokens], predicted)
	}

	if err := srv.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	assertGone(t, pid, 0)
	if err := srv.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if _, err := os.Stat(srv.LogPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the log of a server that ran until Stop is still there (stat: %v)", err)
	}
}

// A server that crashed mid-race keeps its log, and Stop says where it is.
func TestStopKeepsTheLogOfAServerThatExitedOnItsOwn(t *testing.T) {
	pids := pidFile(t)
	srv, err := Start(context.Background(), spawnProvider(t, "--fake-pidfile", pids), nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := readPIDs(t, pids)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-srv.exited
	err = srv.Stop()
	for _, want := range []string{"llama-server had exited on its own (signal: killed); its log is " + srv.LogPath(), ", ending:\n  "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Stop = %v\nwant it to contain %q", err, want)
		}
	}
	if _, err := os.Stat(srv.LogPath()); err != nil {
		t.Errorf("the log of a server that crashed is gone: %v", err)
	}
}

func TestStartServerExitsEarly(t *testing.T) {
	const msg = "gguf_init_from_file_impl: invalid magic characters: 'XXXX', expected 'GGUF'"
	p := spawnProvider(t, "--fake-exit", msg)
	srv, err := Start(context.Background(), p, nil)
	if err == nil {
		srv.Stop()
		t.Fatal("Start succeeded, want the early exit")
	}
	for _, want := range []string{"llama-server exited before its model was loaded (exit status 1)", "; its log is " + os.Getenv("TMPDIR"), ", ending:\n  build: 0", "\n  " + msg} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to contain %q", err, want)
		}
	}
}

func TestStartLoadTimeout(t *testing.T) {
	pids := pidFile(t)
	p := spawnProvider(t, "--fake-never-ready", "--fake-pidfile", pids)
	// 3 s: the fake must have printed its listening line by then, even on a
	// busy machine, for the error to carry the log's tail.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	srv, err := Start(ctx, p, nil)
	if err == nil {
		srv.Stop()
		t.Fatal("Start succeeded, want a load timeout")
	}
	for _, want := range []string{"llama-server had not loaded its model after ", "main: server is listening on http://127.0.0.1:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to contain %q", err, want)
		}
	}
	pid, _ := readPIDs(t, pids)
	assertGone(t, pid, 0)
}

func TestStartCancelled(t *testing.T) {
	pids := pidFile(t)
	p := spawnProvider(t, "--fake-never-ready", "--fake-child", "--fake-pidfile", pids)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := Start(ctx, p, func(string) {
		if _, err := os.Stat(pids); err == nil {
			cancel() // the server, and its child, are running
		}
	})
	if err == nil {
		srv.Stop()
		t.Fatal("Start succeeded, want it cancelled")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	pid, child := readPIDs(t, pids)
	assertGone(t, pid, child)
}

func TestStopEndsTheWholeProcessGroup(t *testing.T) {
	pids := pidFile(t)
	srv, err := Start(context.Background(), spawnProvider(t, "--fake-child", "--fake-pidfile", pids), nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, child := readPIDs(t, pids)
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, pid, child)
}

func TestStopKillsAServerThatIgnoresSIGTERM(t *testing.T) {
	pids := pidFile(t)
	srv, err := Start(context.Background(), spawnProvider(t, "--fake-ignore-term", "--fake-pidfile", pids), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.stopGrace = 300 * time.Millisecond
	began := time.Now()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(began); waited < srv.stopGrace {
		t.Errorf("Stop returned after %v, before the grace period of %v: SIGTERM cannot have worked", waited, srv.stopGrace)
	}
	pid, _ := readPIDs(t, pids)
	assertGone(t, pid, 0)
}

func TestStartRefusesAnAttachedEntry(t *testing.T) {
	if srv, err := Start(context.Background(), attached(closedURL(t)), nil); err == nil {
		srv.Stop()
		t.Fatal("Start of an attach-mode entry succeeded")
	}
}

func TestStartReportsCheckProblems(t *testing.T) {
	p := spawnProvider(t)
	p.ModelPath += ".missing"
	if _, err := Start(context.Background(), p, nil); err == nil || !strings.Contains(err.Error(), "model file not found") {
		t.Errorf("err = %v, want the missing model file", err)
	}
}
