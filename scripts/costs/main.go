//go:build unix

// Command costs measures what measuring costs a tpsrace user: whole
// processes, side by side with minimal reference clients in the same run.
// scripts/bench.sh builds tpsrace and runs it; docs/BENCHMARKS.md explains
// every row.
//
//	go run ./scripts/costs -tpsrace /path/to/tpsrace [-baseline /path/to/older/tpsrace]
//
// The same binary is a reference client (package reference) when started
// with -client floor (splits lines, decodes nothing) or -client decoding
// (decodes every chunk with encoding/json: "the reference" of the figures
// after CPU).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"tpsrace/scripts/costs/reference"
)

const (
	streams   = 16    // one race: 16 simultaneous streams
	manyRuns  = 7     // marginal cost: 7 races minus 1
	answer    = 2000  // tokens per stream
	simTPS    = 20000 // the simulator's speed per stream
	wide      = 256   // streams for the per-stream memory figure
	dashLabel = "costsim"
)

func main() {
	client := flag.String("client", "", "be a reference client: floor or decoding")
	url := flag.String("url", "", "reference client: base URL")
	model := flag.String("model", "", "reference client: model")
	conc := flag.Int("concurrency", streams, "reference client: simultaneous streams")
	runs := flag.Int("runs", 1, "reference client: races one after another")
	bin := flag.String("tpsrace", "", "tpsrace binary to measure")
	baseline := flag.String("baseline", "", "an older tpsrace binary, measured beside it for CPU per token")
	repeat := flag.Int("repeat", 3, "samples of each figure (the median is reported)")
	only := flag.String("only", "", "measure only these figures, comma-separated: cpu, start, frame, memory, ttft (all when empty)")
	flag.Parse()
	if *client != "" {
		referenceClient(*client, *url, *model, *conc, *runs)
		return
	}
	if *bin == "" {
		fail(fmt.Errorf("-tpsrace is required"))
	}
	self, err := os.Executable()
	fail(err)
	m := &measurer{tpsrace: *bin, baseline: *baseline, self: self, repeat: *repeat, dir: must(os.MkdirTemp("", "costs")), only: *only}
	defer os.RemoveAll(m.dir)
	m.run()
}

type measurer struct {
	tpsrace, self, dir string
	baseline           string // an older tpsrace for the CPU table; "" for none
	repeat             int
	simURL             string
	only               string // figures to measure, comma-separated; "" for all
}

// wants reports whether figure is to be measured.
func (m *measurer) wants(figure string) bool {
	return m.only == "" || slices.Contains(strings.Split(m.only, ","), figure)
}

// usage is what one finished process cost.
type usage struct {
	cpu    time.Duration // user + system
	user   time.Duration // user alone: the client's own work, where builds differ (the reads' system time is the floor's too)
	maxRSS int64         // bytes
	stdout []byte
}

func (m *measurer) run() {
	sim := exec.Command(m.tpsrace, "sim", "-addr", "127.0.0.1:0")
	out := must(sim.StdoutPipe())
	fail(sim.Start())
	defer sim.Process.Kill()
	line := must(bufio.NewReader(out).ReadString('\n'))
	m.simURL = regexp.MustCompile(`base_url (\S+)`).FindStringSubmatch(line)[1]

	if m.wants("cpu") {
		m.cpuTable()
	}
	fmt.Printf("| figure | tpsrace | reference (decoding) | tpsrace ÷ reference |\n|---|---|---|---|\n")
	if m.wants("start") {
		t, r := m.firstRequest()
		fmt.Printf("| exec → first request sent (`bench`) | %.1f ms | %.1f ms | |\n", ms(t), ms(r))
	}
	if m.wants("frame") {
		t, r := m.firstFrame()
		fmt.Printf("| exec → first dashboard frame (pty start-up subtracted) | %.1f ms | %.1f ms (pty echo) | |\n", ms(t), ms(r))
	}
	if m.wants("memory") {
		t16, r16, t256, r256 := m.memory()
		fmt.Printf("| peak RSS, one race of %d streams | %.1f MiB | %.1f MiB | |\n", streams, mib(t16), mib(r16))
		fmt.Printf("| memory per stream at %d streams ((RSS₂₅₆ − RSS₁₆) ÷ 240) | %.3f MB | %.3f MB | |\n", wide,
			float64(t256-t16)/float64(wide-streams)/1e6, float64(r256-r16)/float64(wide-streams)/1e6)
	}
	if m.wants("ttft") {
		cold, warm, rcold, rwarm := m.ttft()
		fmt.Printf("| mean TTFT, first (cold) race / later races, loopback, simulator TTFT 0, 16 streams × 20 tokens | %.2f / %.2f ms | %.2f / %.2f ms | |\n", cold, warm, rcold, rwarm)
		fmt.Printf("| client's own share of cold-race TTFT (tpsrace − reference, cold race) | **%.2f ms** | | |\n", cold-rcold)
	}
}

func (m *measurer) model(chunk int) string {
	return fmt.Sprintf("sim:ttft=0ms,tps=%d,tokens=%d,chunk=%d,jitter=0", simTPS, answer, chunk)
}

// config writes a providers file with one provider at url.
func (m *measurer) config(url, model string) string {
	path := filepath.Join(m.dir, "providers.yaml")
	body := fmt.Sprintf("prompt: \"Explain how a CPU cache works.\"\nmax_tokens: %d\nproviders:\n  - name: %s\n    base_url: %s\n    api_key: bench\n    model: %q\n", answer, dashLabel, url, model)
	fail(os.WriteFile(path, []byte(body), 0o600))
	return path
}

func (m *measurer) bench(model string, conc, runs int) usage {
	return m.benchOf(m.tpsrace, model, conc, runs)
}

// benchOf runs `bench` of the tpsrace binary bin.
func (m *measurer) benchOf(bin, model string, conc, runs int) usage {
	return run(exec.Command(bin, "bench", "--config", m.config(m.simURL, model), "--concurrency", fmt.Sprint(conc), "--runs", fmt.Sprint(runs), "--format", "json"))
}

// reference runs the decoding reference client.
func (m *measurer) reference(model string, conc, runs int) usage {
	return m.client("decoding", model, conc, runs)
}

func (m *measurer) client(name, model string, conc, runs int) usage {
	return run(exec.Command(m.self, "-client", name, "-url", m.simURL, "-model", model, "-concurrency", fmt.Sprint(conc), "-runs", fmt.Sprint(runs)))
}

// firstRequest: from exec to the first request arriving at a local server.
func (m *measurer) firstRequest() (tpsrace, reference time.Duration) {
	arrived := make(chan time.Time, 64)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- time.Now()
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	})}
	ln := must(net.Listen("tcp", "127.0.0.1:0"))
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/v1"
	measure := func(cmd func() *exec.Cmd) time.Duration {
		return median(m.repeat+2, func() time.Duration {
			c := cmd()
			start := time.Now()
			run(c)
			at := <-arrived
			for len(arrived) > 0 { // concurrency 1, but drain anything late
				<-arrived
			}
			return at.Sub(start)
		})
	}
	cfg := m.config(url, "bench")
	tpsrace = measure(func() *exec.Cmd { return exec.Command(m.tpsrace, "bench", "--config", cfg, "--format", "json") })
	reference = measure(func() *exec.Cmd {
		return exec.Command(m.self, "-client", "decoding", "-url", url, "-model", "bench", "-concurrency", "1")
	})
	return tpsrace, reference
}

// firstFrame: from exec to the first dashboard frame on a terminal (a pty
// from script(1)), minus the same pty's start-up with a program that prints
// the provider name at once.
func (m *measurer) firstFrame() (tpsrace, pty time.Duration) {
	cfg := m.config(m.simURL, m.model(1))
	measure := func(command string) time.Duration {
		return median(m.repeat+2, func() time.Duration {
			// script(1) runs the command in a session of its own, so the
			// command leaves its pid to be stopped by.
			pidFile := filepath.Join(m.dir, "pid")
			c := exec.Command("script", "-qfec", "stty cols 140 rows 45; echo $$ >"+pidFile+"; exec "+command, "/dev/null")
			c.Env = append(os.Environ(), "TERM=xterm-256color")
			c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out := must(c.StdoutPipe())
			in := must(c.StdinPipe())
			start := time.Now()
			fail(c.Start())
			var seen bytes.Buffer
			buf := make([]byte, 64<<10)
			var at time.Time
			answered := 0
			for {
				n, err := out.Read(buf)
				seen.Write(buf[:n])
				if bytes.Contains(seen.Bytes(), []byte(dashLabel)) {
					at = time.Now()
					break
				}
				// Answer the terminal queries (background colour, cursor
				// position) at once, as a terminal emulator does.
				for ; answered < len(terminalAnswers); answered++ {
					q := terminalAnswers[answered]
					if !bytes.Contains(seen.Bytes(), []byte(q.query)) {
						break
					}
					io.WriteString(in, q.answer)
				}
				if err != nil {
					fail(fmt.Errorf("%s: no frame: %v: %q", command, err, seen.Bytes()))
				}
			}
			if pid, err := os.ReadFile(pidFile); err == nil {
				os.Remove(pidFile)
				var n int
				fmt.Sscan(string(pid), &n)
				// Only while it is still the dashboard: echo's pid may be reused.
				if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", n)); err == nil && bytes.Contains(cmd, []byte("--config")) {
					syscall.Kill(n, syscall.SIGKILL)
				}
			}
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			c.Wait()
			return at.Sub(start)
		})
	}
	pty = measure("echo " + dashLabel)
	tpsrace = measure(m.tpsrace+" --config "+cfg) - pty
	return tpsrace, pty
}

// terminalAnswers are the queries a dashboard asks its terminal at start-up, in order.
var terminalAnswers = []struct{ query, answer string }{
	{"\x1b]11;?", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
	{"\x1b[6n", "\x1b[1;1R"},
}

// memory: peak RSS of one race at 16 and at 256 streams.
func (m *measurer) memory() (t16, r16, t256, r256 int64) {
	model := m.model(1)
	rss := func(measure func() usage) int64 {
		return median(m.repeat, func() int64 { return measure().maxRSS })
	}
	t16 = rss(func() usage { return m.bench(model, streams, 1) })
	r16 = rss(func() usage { return m.reference(model, streams, 1) })
	t256 = rss(func() usage { return m.bench(model, wide, 1) })
	r256 = rss(func() usage { return m.reference(model, wide, 1) })
	return
}

// ttft: mean TTFT of the first race and of the later ones, in ms.
// The streams are short and slow (20 tokens at 1000 tok/s) so that neither
// side is busy when the next race's first token arrives.
func (m *measurer) ttft() (cold, warm, refCold, refWarm float64) {
	model := "sim:ttft=0ms,tps=1000,tokens=20,chunk=1,jitter=0"
	var report struct {
		Providers []struct {
			Runs []struct {
				Run    int      `json:"run"`
				TTFTms *float64 `json:"ttft_ms"`
			} `json:"runs"`
		} `json:"providers"`
	}
	split := func(byRun map[int][]float64) (float64, float64) {
		var later []float64
		for run, v := range byRun {
			if run > 0 {
				later = append(later, v...)
			}
		}
		return mean(byRun[0]), mean(later)
	}
	cold = median(m.repeat+2, func() float64 {
		fail(json.Unmarshal(m.bench(model, streams, manyRuns).stdout, &report))
		byRun := map[int][]float64{}
		for _, r := range report.Providers[0].Runs {
			if r.TTFTms != nil {
				byRun[r.Run] = append(byRun[r.Run], *r.TTFTms)
			}
		}
		c, w := split(byRun)
		warm = w
		return c
	})
	refCold = median(m.repeat+2, func() float64 {
		var byRun map[int][]float64
		fail(json.Unmarshal(m.reference(model, streams, manyRuns).stdout, &byRun))
		c, w := split(byRun)
		refWarm = w
		return c
	})
	return
}

// referenceClient runs races of conc streams with the named client and
// prints each race's TTFTs (ms, by race number from 0, as tpsrace's report
// numbers them) as JSON.
func referenceClient(name, url, model string, conc, runs int) {
	stream := map[string]func(*http.Client, string, string, time.Time) (int, time.Duration, error){
		"floor": reference.Floor, "decoding": reference.Stream,
	}[name]
	if stream == nil {
		fail(fmt.Errorf("-client %q: want floor or decoding", name))
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc, DisableCompression: true}}
	ttft := map[int][]float64{}
	body := fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"Explain how a CPU cache works."}],"max_tokens":%d,"stream":true}`, model, answer)
	for run := range runs {
		var wg sync.WaitGroup
		var mu sync.Mutex
		release := time.Now()
		for range conc {
			wg.Go(func() {
				_, first, err := stream(client, url, body, release)
				fail(err)
				mu.Lock()
				ttft[run] = append(ttft[run], ms(first))
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	fail(json.NewEncoder(os.Stdout).Encode(ttft))
}

func run(c *exec.Cmd) usage {
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, io.Discard
	if err := c.Run(); err != nil {
		fail(fmt.Errorf("%s: %w", strings.Join(c.Args, " "), err))
	}
	ru := c.ProcessState.SysUsage().(*syscall.Rusage)
	return usage{cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), user: time.Duration(ru.Utime.Nano()), maxRSS: ru.Maxrss << 10, stdout: out.Bytes()}
}

// median is the middle of n samples.
func median[T int64 | time.Duration | float64](n int, sample func() T) T {
	v := make([]T, n)
	for i := range v {
		v[i] = sample()
	}
	return middle(v)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(max(len(v), 1))
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
func mib(b int64) float64        { return float64(b) / (1 << 20) }

func must[T any](v T, err error) T {
	fail(err)
	return v
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "costs:", err)
		os.Exit(1)
	}
}
