package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"time"

	"tpsrace/config"
	"tpsrace/llamacpp"
)

// local holds the servers tpsrace started and what it learned about local ones.
type local struct {
	servers []*llamacpp.Server
	info    map[string]string // provider name → on-box hardware line (llama.cpp)
}

func (l *local) stop() {
	for _, s := range l.servers {
		s.Stop()
	}
}

// prepareLocal keeps local entries from spoiling a newcomer's first run: a
// local server that is not running, or a llama.cpp model file that does not
// exist, is skipped with a notice like a missing key. It then starts the
// llama-servers that spawn mode asks for, and describes every llama.cpp one.
// A server that fails to start is reported and left out; the rest race on.
func prepareLocal(ctx context.Context, cfg *config.Config, concurrency int, stderr io.Writer) *local {
	l := &local{info: map[string]string{}}
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
		if p.Kind != config.KindLlamaCpp {
			keep = append(keep, p)
			continue
		}
		logPath := ""
		if p.Spawned() {
			last := time.Time{}
			srv, err := llamacpp.Start(ctx, p, func(msg string) {
				if time.Since(last) > time.Second {
					last = time.Now()
					fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
				}
			})
			if err != nil {
				fmt.Fprintf(stderr, "%s: %s: llama-server did not start: %v\n", p.Where, p.Name, err)
				continue
			}
			l.servers = append(l.servers, srv)
			p.BaseURL, logPath = srv.BaseURL(), srv.LogPath()
		}
		if info, err := llamacpp.Describe(ctx, p, logPath); err == nil {
			l.info[p.Name] = info.Line()
			if note := llamacpp.QueueNote(concurrency, info.Slots); note != "" {
				fmt.Fprintf(stderr, "%s: %s\n", p.Name, note)
				l.info[p.Name] += " · " + note
			}
		}
		keep = append(keep, p)
	}
	cfg.Providers = keep
	return l
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
