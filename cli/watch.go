package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"tpsrace/watch"
)

// watchCmd is `tpsrace watch`: races on a schedule and serves the figures
// to Prometheus (docs/WATCH.md).
type watchCmd struct {
	race        raceFlags
	interval    time.Duration
	grace       time.Duration
	metricsAddr string
	probeName   string
	history     string
	logFormat   string
}

// flags declares the watch's flags on a set of its own (the deploy/ files
// are checked against it).
func (c *watchCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace watch", flag.ContinueOnError)
	c.race.register(fs)
	fs.DurationVar(&c.interval, "interval", time.Minute, "time between race starts (each start moves by up to ±10%; races never overlap)")
	fs.DurationVar(&c.grace, "grace", 10*time.Second, "on SIGTERM, how long the race in flight may finish before it is cancelled")
	fs.StringVar(&c.metricsAddr, "metrics-addr", "127.0.0.1:9464", "address to serve /metrics and /healthz on")
	fs.StringVar(&c.probeName, "probe-name", defaultProbeName(), "the probe label: where this watcher runs (a region, a host)")
	fs.StringVar(&c.history, "history", "", "append each race to this file as one JSON line (the fields of bench --format json)")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format on stderr: text or json")
	return fs
}

func (c *watchCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := c.flags()
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("watch takes no arguments, got %q (see: tpsrace help watch)", fs.Args())}
	}
	if c.interval <= 0 || c.grace < 0 {
		return usageError{fmt.Errorf("--interval must be positive and --grace not negative, got %s and %s", c.interval, c.grace)}
	}
	if c.probeName == "" {
		return usageError{errors.New("--probe-name must not be empty")}
	}
	if err := c.race.check(); err != nil {
		return err
	}
	if err := checkOutput("--history", c.history, "nothing was started"); err != nil {
		return err
	}
	log, err := newLogger(c.logFormat, stderr)
	if err != nil {
		return err
	}
	// Listen first: a port in use fails before any server is started.
	ln, err := net.Listen("tcp", c.metricsAddr)
	if err != nil {
		return usageError{fmt.Errorf("--metrics-addr: %w", err)}
	}
	defer ln.Close()
	s, race, err := c.race.startHeadless(ctx, 1, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	w := &watch.Watcher{Config: s.cfg, Race: race, Probe: c.probeName, Interval: c.interval, Grace: c.grace,
		Exporter: watch.NewExporter(s.cfg.Providers), Log: log, Sweep: s.levels}
	if c.history != "" {
		f, err := os.OpenFile(c.history, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, closeHistory(f)) }()
		w.History = f
	}

	srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("serving", "metrics", "http://"+ln.Addr().String()+"/metrics", "healthz", "http://"+ln.Addr().String()+"/healthz")

	err = w.Run(ctx)
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shutdown); serr != nil {
		log.Warn("stopping the metrics server", "error", serr.Error())
	}
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	log.Info("stopped")
	return err
}

func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, usageError{fmt.Errorf("--log-format %q: want text or json", format)}
}

// closeHistory flushes the history to disk before the process exits.
func closeHistory(f *os.File) error {
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("closing the history %s: %w", f.Name(), err)
	}
	return nil
}
