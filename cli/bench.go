package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"tpsrace/probes"
	"tpsrace/report"
	"tpsrace/tokens"
)

// benchCmd is `tpsrace bench`: races without the dashboard and prints the
// leaderboard (table, json, csv or markdown).
type benchCmd struct {
	race   raceFlags
	runs   int
	format string
	out    string
}

// errAllFailed: the bench ran, but no stream completed.
var errAllFailed = errors.New("every stream failed (see the report)")

func (c *benchCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tpsrace bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.race.register(fs)
	fs.IntVar(&c.runs, "runs", 1, "races to run one after another")
	fs.StringVar(&c.format, "format", "table", "output: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&c.out, "out", "", "write the report to this file instead of stdout")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("bench takes no arguments, got %q", fs.Args())}
	}
	if c.runs < 1 {
		return usageError{fmt.Errorf("--runs must be at least 1, got %d", c.runs)}
	}
	if !slices.Contains(append(report.Formats, "md"), c.format) {
		return usageError{fmt.Errorf("--format %q: want one of %s", c.format, strings.Join(report.Formats, ", "))}
	}
	s, err := c.race.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	s.local.startForBench(ctx, s.cfg, c.race.concurrency, stderr)
	if len(s.cfg.Providers) == 0 {
		return errAllFailed
	}
	tokens.Warm()

	in := report.Input{Config: s.cfg, Concurrency: c.race.concurrency, StartedAt: time.Now()}
	clients := &probes.Clients{}
	defer clients.Close()
	race := probes.Race{Providers: s.cfg.Providers, Request: probes.Request{Prompt: s.cfg.Prompt, MaxTokens: s.cfg.MaxTokens},
		Concurrency: c.race.concurrency, Retries: c.race.retries, Clients: clients, Warm: c.race.warm}
	progress := newProgress(stderr, len(s.cfg.Providers)*c.race.concurrency, c.runs)
	before := serverTotals(ctx, s.cfg)
	for run := range c.runs {
		if ctx.Err() != nil {
			break
		}
		updates := make(chan probes.Update, 1024)
		drained := make(chan struct{})
		go func() {
			defer close(drained)
			for u := range updates {
				progress.update(run, u)
			}
		}()
		results := race.Run(ctx, updates)
		close(updates)
		<-drained
		in.Races = append(in.Races, results)
	}
	progress.finish()
	in.Interrupted = ctx.Err() != nil
	reportServerTotals(before, serverTotals(context.WithoutCancel(ctx), s.cfg), stderr)

	b := report.Build(in)
	w := stdout
	if c.out != "" {
		f, err := os.Create(c.out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := b.Write(w, c.format); err != nil {
		return err
	}
	if c.out != "" {
		fmt.Fprintln(stderr, "wrote", c.out)
	}
	if in.Interrupted {
		return errInterrupted
	}
	for _, p := range b.Providers {
		if p.Summary.OK > 0 {
			return nil
		}
	}
	return errAllFailed
}

// progress is the line bench keeps on stderr while it runs: rewritten in
// place on a terminal, one line per finished race otherwise (logs, CI).
type progress struct {
	w           io.Writer
	tty         bool
	streams     int
	runs        int
	done, fails int
	tokens      int
	last        time.Time
}

func newProgress(w io.Writer, streams, runs int) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && isTerminal(f), streams: streams, runs: runs}
}

func (p *progress) update(run int, u probes.Update) {
	switch {
	case u.Event != nil:
		p.tokens += u.Event.Tokens
	case u.Done != nil:
		p.done++
		if !u.Done.OK() {
			p.fails++
		}
	}
	finished := p.done == p.streams
	if p.tty && (finished || time.Since(p.last) > 100*time.Millisecond) {
		p.last = time.Now()
		fmt.Fprintf(p.w, "\rrace %d/%d: %d/%d streams done, %d failed, %d tokens   ", run+1, p.runs, p.done, p.streams, p.fails, p.tokens)
	}
	if finished {
		if !p.tty {
			fmt.Fprintf(p.w, "race %d/%d: %d streams done, %d failed, %d tokens\n", run+1, p.runs, p.done, p.fails, p.tokens)
		}
		p.done, p.fails, p.tokens = 0, 0, 0
	}
}

func (p *progress) finish() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
