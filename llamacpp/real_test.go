//go:build unix

package llamacpp

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/llamacpp/llamacpptest"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/testenv"
)

// oneThread is the tiny model's: it needs no more, and spinning threads on a
// busy machine slow llama.cpp down twentyfold.
const oneThread = "1"

// startReal starts a real llama-server ($TPSRACE_LLAMA_SERVER, or
// llama-server in PATH) on a model (llamacpptest's) with that many slots
// and threads, and stops it when the test ends. With no llama-server the test skips, or fails
// under CI (testenv.Missing).
func startReal(t *testing.T, ctx context.Context, model, slots, threads string) (config.Provider, *Server) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir()) // for the server's log
	p := config.Provider{
		Name: "laptop", Kind: config.KindLlamaCpp, Model: "tiny-llama", ModelPath: model,
		Args: []string{"-c", "2048", "--parallel", slots, "--threads", threads}, Timeout: config.DefaultTimeouts,
	}
	if reason := Check(ctx, p); reason != "" {
		testenv.Missing(t, "llama-server", reason)
	}
	srv, err := Start(ctx, p, nil)
	if err != nil {
		t.Fatal(err) // the error holds the end of the server's log
	}
	t.Cleanup(func() { srv.Stop() })
	p.BaseURL = srv.BaseURL()
	return p, srv
}

// TestRealLlamaServer races a real llama-server on a tiny model made here
// (nothing is downloaded): spawn, load, race, the server's own speed
// against the client's, /props, /metrics, a clean stop and no orphan.
func TestRealLlamaServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, srv := startReal(t, ctx, llamacpptest.Model(t), "2", oneThread)
	pgid := srv.process.Pid

	// The speeds agree unless another process delays the server's sending or
	// the client's reading: a race that disagrees races again where the
	// client saw its own load (testenv.Timed).
	const maxTokens = 512
	var predicted, predictedMS float64 // the streams' own timings, summed over the races
	testenv.Timed(t, func(a *testenv.Attempt) {
		var disagree string
		disagree, a.Load = raceAndCompare(t, ctx, p, srv, maxTokens, &predicted, &predictedMS)
		if disagree != "" {
			a.Missf("%s, want within 5%%", disagree)
		}
	})

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
	// The server's counters are the sums of its streams' timings.
	if got := m[MetricPredictedTokens]; got != predicted {
		t.Errorf("%s = %v, want the %v tokens the streams' timings count", MetricPredictedTokens, got, predicted)
	}
	if got, want := m[MetricPredictedSeconds], predictedMS/1000; got < want-0.001 || got > want+0.001 {
		t.Errorf("%s = %v, want %v: the sum of the streams' predicted_ms", MetricPredictedSeconds, got, want)
	}

	// The roofline of the box under the real server: the model's decode
	// bytes from its file as the server names it, this machine's cache and
	// a real bandwidth measurement. The tiny model fits in any cache this
	// machine reports; without one, decode is a share of the memory limit.
	probe := DefaultBoxProbe()
	probe.CacheDir = t.TempDir()
	box, err := probe.Box(info.ModelPath)
	if err != nil || box.DecodeBytes <= 0 || box.MemoryBandwidth <= 0 {
		t.Fatalf("Box(%q) = %+v, %v; want decode bytes and a bandwidth", info.ModelPath, box, err)
	}
	r, ok := metrics.MemoryRoofline(1000*predicted/predictedMS, true, &box)
	switch {
	case !ok:
		t.Errorf("MemoryRoofline of %+v undefined", box)
	case box.CacheBytes > 0 && !r.InCache:
		t.Errorf("a model of %d bytes in a %d-byte cache: %+v, want in cache", box.DecodeBytes, box.CacheBytes, r)
	case !r.InCache && (r.Share <= 0 || r.Share > 1):
		t.Errorf("decode at %.0f%% of the memory limit, want within 0–100%%", 100*r.Share)
	}
	t.Logf("box: %+v (%.1f GB/s): %s", box, box.MemoryBandwidth/1e9, r.Phrase())

	began := time.Now()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took >= StopGrace {
		t.Errorf("Stop took %v: llama-server did not exit on SIGTERM", took)
	}
	assertGone(t, pgid, 0)
}

// TestRealQueueing races more users than the server has slots: one slot,
// three users. The lane's note says two queue; the server defers them
// (/metrics), and each queued stream's first token comes only once the
// stream before it has ended, so its TTFT holds the wait.
func TestRealQueueing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, srv := startReal(t, ctx, llamacpptest.Model(t), "1", oneThread)
	info, err := Describe(ctx, p, srv.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	const users = 3
	if got, want := QueueNote(users, info.Slots), "3 users > 1 slot: 2 queue on the server"; got != want {
		t.Errorf("QueueNote(%d, %d) = %q, want %q", users, info.Slots, got, want)
	}

	// While the race runs, watch the server defer the users beyond its slot.
	deferred := make(chan float64, 1)
	raceCtx, raceDone := context.WithCancel(ctx)
	go func() {
		most := 0.0
		for raceCtx.Err() == nil {
			if m, err := FetchMetrics(raceCtx, p); err == nil {
				most = max(most, m[MetricRequestsDeferred])
			}
			time.Sleep(5 * time.Millisecond)
		}
		deferred <- most
	}()
	results := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "Say something.", MaxTokens: 256}, Concurrency: users}.Run(ctx, nil)
	raceDone()
	if most := <-deferred; most < 1 {
		t.Errorf("%s was at most %v during the race, want the queued users deferred", MetricRequestsDeferred, most)
	}

	streams := slices.Clone(results[0])
	for _, r := range streams {
		if !r.OK() {
			t.Fatalf("stream %d: %v (server log: %s)", r.Stream, r.Err, srv.LogPath())
		}
	}
	slices.SortFunc(streams, func(a, b probes.Result) int { return int(metrics.Compute(&a, 0).TTFT - metrics.Compute(&b, 0).TTFT) })
	// The stream that ends frees the slot; the next one's prompt is
	// processed only then. Client timestamps of two streams can cross by a
	// scheduling delay, no more.
	const slack = 20 * time.Millisecond
	for k := 1; k < len(streams); k++ {
		prev, next := streams[k-1], metrics.Compute(&streams[k], 0)
		t.Logf("queued stream %d: TTFT %v, after the stream before it ended at %v", k, next.TTFT, prev.End)
		if next.TTFT < prev.End-slack {
			t.Errorf("stream with TTFT %v started before the one ahead of it ended (%v): with one slot it must queue", next.TTFT, prev.End)
		}
	}
}

// TestRealRooflineBeyondCache races a real llama-server on a model twice
// the size of the largest cache this machine reports (the roofline's, and
// getconf's, which on AMD is the whole chip's L3), so that each decode
// step surely reads its weights from memory: the lane's roofline, computed as the
// dashboard computes it (a stream's server_tps against the box of the
// model file), must be a share of the memory limit within 0–100%. The
// server runs a thread per core, as a user's would: the bandwidth probe
// must reach what llama.cpp's threads reach.
func TestRealRooflineBeyondCache(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	probe := DefaultBoxProbe()
	cpuinfo, _ := os.ReadFile(probe.CPUInfo)
	getconf, _ := exec.Command(probe.Getconf, "-a").Output()
	size := 2 * max(probe.lastLevelCache(string(cpuinfo)), largestGetconfCache(string(getconf)), 32<<20)
	began := time.Now()
	p, srv := startReal(t, ctx, llamacpptest.LargeModel(t, size), "1", strconv.Itoa(runtime.GOMAXPROCS(0)))
	t.Logf("a %d MB model written and loaded in %v", size>>20, time.Since(began).Round(time.Millisecond))
	// Another process's memory traffic can only lower the bandwidth the
	// probe measures (under `go test ./...` every package runs at once), and
	// the probe sees it (BandwidthDisturbed: it lacked its cores): the probe
	// measures again until it had them (undisturbedBox), and a miss is
	// measured anew where the probe or the race saw load (testenv.Timed).
	// Under the race detector the probe always reads low: then the roofline
	// must say so instead of a share.
	patience := time.Now().Add(boxPatience)
	testenv.Timed(t, func(a *testenv.Attempt) {
		box := undisturbedBox(t, probe, p.ModelPath, patience)
		results := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "Say something.", MaxTokens: 16}, Concurrency: 1}.Run(ctx, nil)
		r := results[0][0]
		if !r.OK() {
			t.Fatalf("%v (server log: %s)", r.Err, srv.LogPath())
		}
		a.Load = metrics.Saturation(r.Load)
		if box.BandwidthDisturbed && !raceDetector {
			a.Load = cmp.Or(a.Load, "the bandwidth probe lacked its cores (another process took one)")
		}
		f := metrics.Compute(&r, 0)
		roofline, ok := metrics.MemoryRoofline(f.ServerTPS, f.HasServerTPS, &box)
		phrase := roofline.Phrase()
		t.Logf("decode %.1f tok/s · %s; %s", f.ServerTPS, phrase, metrics.BoxLine(box))
		switch {
		case !ok || roofline.InCache:
			t.Fatalf("roofline %+v (defined: %v), want one beyond the cache", roofline, ok)
		case raceDetector:
			if !box.BandwidthDisturbed || !strings.Contains(phrase, "bandwidth probe") {
				t.Errorf("under the race detector: %q from %+v, want the phrase to say the bandwidth probe was disturbed", phrase, box)
			}
		case box.BandwidthDisturbed || roofline.BandwidthLow || roofline.Share <= 0 || roofline.Share > 1:
			a.Missf("roofline %+v: %q, want an undisturbed share of the memory limit within 0–100%%", roofline, phrase)
		}
	})
}

// boxPatience is how long undisturbedBox measures again, over all of a
// test's attempts, while other processes take a core: under `go test
// ./...` another package's tests held one of 2 cores for seconds at a
// time, and one busy loop beside the test left no probe undisturbed in
// three attempts.
const boxPatience = 45 * time.Second

// undisturbedBox is probe's Box for the model, measured again (each time
// afresh, with no cache) until the bandwidth probe had its cores all
// along; under the race detector, or once patience has passed, the first
// one, disturbed or not. The probe's own reading of its CPU time says when
// it was disturbed, so no reading is taken for good that the probe did
// not vouch for.
func undisturbedBox(t *testing.T, probe BoxProbe, modelPath string, patience time.Time) config.Box {
	t.Helper()
	began := time.Now()
	for tries := 1; ; tries++ {
		probe.CacheDir = t.TempDir()
		box, err := probe.Box(modelPath)
		if err != nil || box.DecodeBytes <= box.CacheBytes || box.MemoryBandwidth <= 0 {
			t.Fatalf("Box = %+v, %v; want decode bytes beyond the cache and a bandwidth", box, err)
		}
		if !box.BandwidthDisturbed || raceDetector || time.Now().After(patience) {
			if tries > 1 {
				t.Logf("the bandwidth probe measured %d times in %v (disturbed: %v)", tries, time.Since(began).Round(time.Millisecond), box.BandwidthDisturbed)
			}
			return box
		}
	}
}

// raceAndCompare races 2 users on the server, checks each stream, adds the
// streams' timings to predicted and predictedMS, and says how server_tps and
// the client's output speed disagree by more than 5%, "" when they agree,
// with the client's load (metrics.Saturation, "" none measured).
func raceAndCompare(t *testing.T, ctx context.Context, p config.Provider, srv *Server, maxTokens int, predicted, predictedMS *float64) (disagree, load string) {
	t.Helper()
	results := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "Say something.", MaxTokens: maxTokens}, Concurrency: 2}.Run(ctx, nil)
	for _, r := range results[0] {
		if !r.OK() {
			t.Fatalf("stream %d: %v (server log: %s)", r.Stream, r.Err, srv.LogPath())
		}
		load = cmp.Or(load, metrics.Saturation(r.Load))
		f := metrics.Compute(&r, 0)
		if r.FinishReason != "length" || f.OutputTokens != maxTokens {
			t.Errorf("stream %d: finish %q after %d tokens, want \"length\" after %d: the tiny model never stops by itself", r.Stream, r.FinishReason, f.OutputTokens, maxTokens)
		}
		if r.Timings == nil || !f.HasServerTPS || !f.HasOutputTPS {
			t.Fatalf("stream %d: timings %+v, output_tps %v (%v): want both", r.Stream, r.Timings, f.OutputTPS, f.HasOutputTPS)
		}
		*predicted += float64(r.Timings.PredictedN)
		*predictedMS += r.Timings.PredictedMS
		diff := f.ServerTPS/f.OutputTPS - 1
		t.Logf("stream %d: server_tps %.1f, output_tps %.1f: %+.2f%%", r.Stream, f.ServerTPS, f.OutputTPS, 100*diff)
		if diff > 0.05 || diff < -0.05 {
			disagree = fmt.Sprintf("stream %d: server_tps %.0f, output_tps %.0f: %+.1f%% (%s)", r.Stream, f.ServerTPS, f.OutputTPS, 100*diff, largestGap(slices.Collect(r.Events.Values())))
			t.Log(disagree)
		}
	}
	return disagree, load
}

// largestGap says where a stream paused longest, for a disagreement's message.
func largestGap(events []probes.Event) string {
	gap, at := time.Duration(0), 0
	for k := 1; k < len(events); k++ {
		if d := events[k].At - events[k-1].At; d > gap {
			gap, at = d, k
		}
	}
	return fmt.Sprintf("the longest gap between events, %v, before event %d of %d, from %v", gap, at, len(events), events[0].At)
}
