package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"tpsrace/report"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
	"tpsrace/watch"
)

// logBuffer collects a command's stderr while the test reads it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// metricsURL waits for the watch's "serving" log line (--log-format json)
// and returns the /metrics URL it names.
func metricsURL(t *testing.T, logs *logBuffer) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for line := range strings.Lines(logs.String()) {
			var l struct{ Msg, Metrics string }
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "serving" {
				return l.Metrics
			}
		}
	}
	t.Fatalf("the watch never said where it serves:\n%s", logs)
	return ""
}

// getJSON decodes the JSON answer of a GET.
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// waitRaces waits until /healthz has counted n races.
func waitRaces(t *testing.T, base string, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var h struct{ Races int }
		getJSON(t, base+"/healthz", &h)
		if h.Races >= n {
			return
		}
	}
	t.Fatalf("fewer than %d races in 30s", n)
}

// A real Prometheus scrapes `tpsrace watch` racing four providers with
// real-looking models (the simulator's four profiles behind a server that
// serves them under other names) and one that always answers 503, beside a
// `watch --simulated` whose every series says simulated="true"; its HTTP API must return
// each provider's TTFT histogram, and its median estimate must lie in the
// buckets that hold the TTFTs the history recorded for that provider (the
// same figure, two paths).
func TestPrometheusScrapesWatch(t *testing.T) {
	promBin := testenv.Require(t, "prometheus")
	providers := []string{"sim-wafer", "sim-lpu", "sim-gpu", "sim-laptop"}
	model := func(p string) string { return strings.TrimPrefix(p, "sim-") + "-70b" } // wafer-70b serves sim:wafer
	schedules := map[string]string{}
	for _, p := range append(providers, "sim-fault=503") {
		schedules[model(p)] = strings.Replace(p, "sim-", "sim:", 1)
	}
	url := realLookingProvider(t, schedules)
	dir := t.TempDir()
	yaml := "max_tokens: 20\nproviders:\n"
	for _, p := range append(providers, "sim-fault=503") {
		yaml += fmt.Sprintf("  - {name: %s, base_url: %q, model: %q}\n", p, url, model(p))
	}
	cfg := write(t, dir, "p.yaml", yaml)
	history := filepath.Join(dir, "history.jsonl")
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	logs := &logBuffer{}
	target := startWatch(t, ctx, stop, logs, "--config", cfg, "--interval", "1s", "--metrics-addr", "127.0.0.1:0",
		"--probe-name", "ci", "--history", history, "--log-format", "json")
	// A second probe races the built-in SIMULATED providers (the same names):
	// its series carry simulated="true", and deploy/'s queries must hold.
	simTarget := startWatch(t, ctx, stop, &logBuffer{}, "--simulated", "--max-tokens", "20", "--interval", "1s", "--metrics-addr", "127.0.0.1:0",
		"--probe-name", "ci-sim", "--log-format", "json")
	prom := startPrometheus(t, promBin, dir, target, simTarget)

	var counts map[string]float64
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		counts = prom.query(`sum by (provider) (tpsrace_ttft_seconds_count{probe="ci", job="tpsrace"})`)
		if !slices.ContainsFunc(providers, func(p string) bool { return counts[p] == 0 }) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60s Prometheus has TTFT counts %v, want all of %v; prometheus log:\n%s\nwatch log:\n%s", counts, providers, prom.log.String(), logs)
		}
	}
	checkDeployQueries(t, prom)
	if labelled := prom.query(`tpsrace_races_total{probe="ci", simulated!=""}`); len(labelled) > 0 {
		t.Errorf("the real probe's series say simulated: %v", labelled)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		sims := prom.query(`tpsrace_races_total{probe="ci-sim", simulated="true"}`)
		if len(sims) == len(providers) {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("the simulated probe's races_total with simulated=\"true\": %v, want one for each of %v", sims, providers)
			break
		}
	}
	checkMediansInHistoryBuckets(t, prom, providers, historyTTFTs(t, history))
}

// startWatch runs `tpsrace watch args` until the test ends (stop, then
// its error checked) and returns the address of its /metrics, read from
// its JSON log.
func startWatch(t *testing.T, ctx context.Context, stop func(), logs *logBuffer, args ...string) string {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- (&watchCmd{}).run(ctx, args, io.Discard, logs) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("watch %s: %v", strings.Join(args, " "), err)
		}
	})
	target, _ := url.Parse(metricsURL(t, logs))
	return target.Host
}

// prometheus is a real Prometheus scraping the watches, and its log.
type prometheus struct {
	t    *testing.T
	addr string
	log  *logBuffer
}

// startPrometheus starts promBin scraping targets every second, stopped
// when the test ends, and waits until it says it is ready: before that
// its API may answer 503 with no JSON.
func startPrometheus(t *testing.T, promBin, dir string, targets ...string) prometheus {
	t.Helper()
	p := prometheus{t: t, addr: freeAddr(t), log: &logBuffer{}}
	promCfg := write(t, dir, "prometheus.yml", fmt.Sprintf(`global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: tpsrace
    static_configs: [{targets: ["%s"]}]
`, strings.Join(targets, `", "`)))
	cmd := exec.Command(promBin, "--config.file="+promCfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+p.addr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if resp, err := http.Get("http://" + p.addr + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus not ready after 60s; its log:\n%s", p.log.String())
		}
	}
}

// query is q's value now, by provider.
func (p prometheus) query(q string) map[string]float64 {
	var answer struct {
		Status, Error string
		Data          struct {
			Result []struct {
				Metric map[string]string
				Value  [2]any
			}
		}
	}
	resp, err := http.Get("http://" + p.addr + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		p.t.Fatalf("query %s: %v", q, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || answer.Status != "success" {
		p.t.Fatalf("query %s: status %q %s, %v", q, answer.Status, answer.Error, err)
	}
	values := map[string]float64{}
	for _, r := range answer.Data.Result {
		var v float64
		fmt.Sscan(r.Value[1].(string), &v)
		values[r.Metric["provider"]] = v
	}
	return values
}

// checkDeployQueries runs every query of the Grafana dashboard and the
// alert rules in deploy/ on prom: every dashboard query returns series.
func checkDeployQueries(t *testing.T, prom prometheus) {
	t.Helper()
	for _, q := range deployQueries(t) {
		deadline := time.Now().Add(20 * time.Second)
		for len(prom.query(q.expr)) == 0 && !q.mayBeEmpty {
			if time.Now().After(deadline) {
				t.Errorf("deploy/ query returns nothing after 20s: %s", q.expr)
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
}

// checkMediansInHistoryBuckets checks each provider's median TTFT as
// Prometheus estimates it against the TTFTs the history recorded: it lies
// in the buckets that hold them, and Prometheus saw no more of them.
func checkMediansInHistoryBuckets(t *testing.T, prom prometheus, providers []string, ttfts map[string][]float64) {
	t.Helper()
	medians := prom.query(`histogram_quantile(0.5, sum by (provider, le) (tpsrace_ttft_seconds_bucket{probe="ci"}))`)
	scraped := prom.query(`max by (provider) (tpsrace_ttft_seconds_count{probe="ci"})`) // the races Prometheus has seen
	t.Logf("Prometheus: TTFT counts %v, median TTFT estimates %v", scraped, medians)
	for _, p := range providers {
		if len(ttfts[p]) < int(scraped[p]) {
			t.Errorf("%s: Prometheus counted %v TTFTs, the history has only %d", p, scraped[p], len(ttfts[p]))
		}
		lo, hi := bucketOf(slices.Min(ttfts[p])), bucketOf(slices.Max(ttfts[p]))
		if m := medians[p]; m < lo[0] || m > hi[1] {
			t.Errorf("%s: Prometheus' median TTFT %.3fs is outside the buckets (%g, %g] that hold the history's TTFTs %v", p, m, lo[0], hi[1], ttfts[p])
		}
	}
}

// historyTTFTs are each provider's TTFTs, in seconds, from a history file.
func historyTTFTs(t *testing.T, path string) map[string][]float64 {
	t.Helper()
	records, err := report.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	ttfts := map[string][]float64{}
	for _, r := range records {
		for _, p := range r.Providers {
			for _, run := range p.Streams {
				if run.OK && run.TTFTms != nil {
					ttfts[p.Name] = append(ttfts[p.Name], *run.TTFTms/1000)
				}
			}
		}
	}
	return ttfts
}

// bucketOf returns the (lower, upper] bounds of the TTFT bucket holding v.
func bucketOf(v float64) [2]float64 {
	lower := 0.0
	for _, b := range watch.TTFTBuckets {
		if v <= b {
			return [2]float64{lower, b}
		}
		lower = b
	}
	return [2]float64{lower, lower}
}

// freeAddr is a loopback address nothing listens on (for a child process).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// The watch's logs, history and /metrics never show an API key, even when
// a server echoes the request headers into its error.
func TestWatchNeverShowsTheKey(t *testing.T) {
	const key = "sk-watch-canary-3f9a1c7e5b"
	t.Setenv("TPSRACE_WATCH_KEY", key)
	srv := simtest.Start(t, sim.Options{})
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "providers:\n  - name: echo\n    base_url: "+srv.URL()+"\n    api_key: ${TPSRACE_WATCH_KEY}\n    model: \"sim:fault=echo\"\n")
	history := filepath.Join(dir, "h.jsonl")
	exposed, logs := scrapeWatch(t, 2, "--config", cfg, "--interval", "50ms", "--history", history)
	saved, _ := os.ReadFile(history)
	for name, text := range map[string]string{"logs": logs.String(), "history": string(saved), "/metrics": exposed} {
		if strings.Contains(text, key) {
			t.Errorf("%s shows the API key", name)
		}
	}
	if !strings.Contains(logs.String(), "REDACTED") || !strings.Contains(exposed, `tpsrace_failures_total{kind="http",model="sim:fault=echo",probe=`) {
		t.Errorf("want the failure logged (redacted) and counted by kind; logs:\n%s\nmetrics:\n%s", logs, grepLines(exposed, "tpsrace_failures"))
	}
}

// scrapeWatch runs `tpsrace watch args…` (serving /metrics on a free
// port, logging JSON) until it has raced races times, then returns its
// /metrics exposition and its logs once it has stopped.
func scrapeWatch(t *testing.T, races int, args ...string) (string, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- (&watchCmd{}).run(ctx, append(args, "--metrics-addr", "127.0.0.1:0", "--log-format", "json"), io.Discard, logs)
	}()
	metrics := metricsURL(t, logs)
	waitRaces(t, strings.TrimSuffix(metrics, "/metrics"), races)
	resp, err := http.Get(metrics)
	if err != nil {
		t.Fatal(err)
	}
	exposed, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return string(exposed), logs
}

func grepLines(text, sub string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if strings.Contains(line, sub) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// deployQuery is a PromQL expression of deploy/; mayBeEmpty for the alerts,
// whose thresholds the simulated providers never reach.
type deployQuery struct {
	expr       string
	mayBeEmpty bool
}

// deployQueries are the expressions of deploy/'s Grafana dashboard (its
// variables set to match everything) and alert rules.
func deployQueries(t *testing.T) []deployQuery {
	t.Helper()
	raw, err := os.ReadFile("../deploy/grafana/tpsrace-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}
	vars := strings.NewReplacer(`$provider`, `.*`, `$probe`, `.*`, `$window`, `30s`)
	var queries []deployQuery
	for _, p := range dash.Panels {
		for _, target := range p.Targets {
			queries = append(queries, deployQuery{vars.Replace(target.Expr), false})
		}
	}
	raw, err = os.ReadFile("../deploy/prometheus/tpsrace-alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct{ Expr string }
		}
	}
	if err := yaml.Unmarshal(raw, &rules); err != nil {
		t.Fatal(err)
	}
	for _, r := range rules.Groups[0].Rules {
		queries = append(queries, deployQuery{r.Expr, true})
	}
	return queries
}
