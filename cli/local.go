package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"time"

	"tpsrace/config"
	"tpsrace/llamacpp"
	"tpsrace/metrics"
)

// local holds the llama-servers tpsrace started and what it learned about
// the local ones.
type local struct {
	servers []localServer
	info    map[string]string // provider name → on-box hardware line (llama.cpp)
	slots   map[string]int    // provider name → the server's slots (llama.cpp), for llamacpp.QueueNote
	stderr  io.Writer         // for what stop has to say
}

// localServer is a llama-server tpsrace started, for the provider named.
type localServer struct {
	provider string
	*llamacpp.Server
}

// stop stops the servers, saying on stderr what went wrong with any (one
// that crashed mid-race: its log, kept).
func (l *local) stop() {
	for _, s := range l.servers {
		if err := s.Stop(); err != nil {
			fmt.Fprintf(l.stderr, "warning: %s: %v\n", s.provider, err)
		}
	}
}

// skipLocal keeps local entries from spoiling a newcomer's first run: a
// local server that is not running, or a llama.cpp model file or binary that
// does not exist, is skipped with a notice like a missing key.
func skipLocal(ctx context.Context, cfg *config.Config, stderr io.Writer) {
	var keep []config.Provider
	for _, p := range cfg.Providers {
		reason := ""
		switch {
		case p.Kind == config.KindLlamaCpp:
			reason = llamacpp.Check(ctx, p)
		case isLoopback(p.BaseURL) && !p.Simulated():
			reason = unreachable(p.BaseURL)
		}
		if reason != "" {
			n := config.Notice{Provider: p.Name, Where: p.Where, Reason: reason}
			cfg.Skipped = append(cfg.Skipped, n)
			fmt.Fprintln(stderr, n)
			continue
		}
		keep = append(keep, p)
	}
	cfg.Providers = keep
}

// start starts the llama-servers that spawn mode asks for (setting their
// BaseURL in cfg) and describes every llama.cpp provider. progress reports
// provider i's loading state; a server that fails to start is errs[i] and
// the rest race on. It must finish before the race that uses cfg starts.
func (l *local) start(ctx context.Context, cfg *config.Config, progress func(i int, msg string)) (errs []error) {
	errs = make([]error, len(cfg.Providers))
	for i := range cfg.Providers {
		p := &cfg.Providers[i]
		if p.Kind != config.KindLlamaCpp {
			continue
		}
		logPath := ""
		if p.Spawned() {
			srv, err := llamacpp.Start(ctx, *p, func(msg string) { progress(i, msg) })
			if err != nil {
				errs[i] = err
				continue
			}
			l.servers = append(l.servers, localServer{p.Name, srv})
			p.BaseURL, logPath = srv.BaseURL(), srv.LogPath()
		}
		info, err := llamacpp.Describe(ctx, *p, logPath)
		if err == nil {
			l.info[p.Name], l.slots[p.Name] = info.Line(), info.Slots
		}
		p.Box = box(*p, info)
	}
	return errs
}

// box measures what the memory roofline of a llama.cpp server on this
// machine rests on (its model's decode bytes, the cache, the memory
// bandwidth), nil for a server elsewhere or on a GPU, whose memory is not
// this CPU's, or a model file it cannot read.
func box(p config.Provider, info llamacpp.Info) *config.Box {
	model := cmp.Or(p.ModelPath, info.ModelPath) // spawned, else the server's own word
	if info.Cores == 0 || info.GPU != "" || model == "" {
		return nil
	}
	b, err := llamacpp.DefaultBoxProbe().Box(model)
	if err != nil {
		return nil // a model file this machine cannot read: no roofline
	}
	return &b
}

// startForBench starts local servers with progress on stderr, leaving out
// (with the reason) any that fails.
func (l *local) startForBench(ctx context.Context, cfg *config.Config, concurrency int, stderr io.Writer) {
	last := map[int]time.Time{}
	errs := l.start(ctx, cfg, func(i int, msg string) {
		if time.Since(last[i]) > time.Second {
			last[i] = time.Now()
			fmt.Fprintf(stderr, "%s: %s\n", cfg.Providers[i].Name, msg)
		}
	})
	var keep []config.Provider
	for i, p := range cfg.Providers {
		if errs[i] != nil {
			fmt.Fprintf(stderr, "%s: %s: %v\n", p.Where, p.Name, errs[i])
			continue
		}
		if line := l.info[p.Name]; line != "" {
			if note := llamacpp.QueueNote(concurrency, l.slots[p.Name]); note != "" {
				line += " · " + note
			}
			fmt.Fprintf(stderr, "%s: %s\n", p.Name, line)
		}
		if p.Box != nil {
			fmt.Fprintf(stderr, "%s: memory roofline from %s\n", p.Name, metrics.BoxLine(*p.Box))
		}
		keep = append(keep, p)
	}
	cfg.Providers = keep
}

func isLoopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// unreachable says why nothing listens at a local base URL, or "".
func unreachable(raw string) string {
	u, _ := url.Parse(raw)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(u.Hostname(), port), time.Second)
	if err != nil {
		return fmt.Sprintf("nothing is listening at %s (start the server, or remove the entry)", config.RedactURL(raw))
	}
	conn.Close()
	return ""
}

// serverTotals snapshots each llama.cpp provider's /metrics counters, so a
// bench can report what the server itself counted during the races.
func serverTotals(ctx context.Context, cfg *config.Config) map[string]map[string]float64 {
	totals := map[string]map[string]float64{}
	for _, p := range cfg.Providers {
		if p.Kind != config.KindLlamaCpp {
			continue
		}
		if m, err := llamacpp.FetchMetrics(ctx, p); err == nil {
			totals[p.Name] = m
		}
	}
	return totals
}

// reportServerTotals prints, per llama.cpp provider, the server's own
// counters over the races: the difference of two serverTotals snapshots.
func reportServerTotals(before, after map[string]map[string]float64, stderr io.Writer) {
	for name, a := range after {
		b, ok := before[name]
		if !ok {
			continue
		}
		d := func(key string) float64 { return a[key] - b[key] }
		tok, secs := d(llamacpp.MetricPredictedTokens), d(llamacpp.MetricPredictedSeconds)
		line := fmt.Sprintf("%s: server counted %.0f prompt tokens and %.0f generated tokens", name, d(llamacpp.MetricPromptTokens), tok)
		if tps, ok := metrics.ServerCountedTPS(tok, secs); ok {
			line += fmt.Sprintf(" in %.2f s of generation (%.1f tok/s per slot)", secs, tps)
		}
		fmt.Fprintln(stderr, line)
	}
}
