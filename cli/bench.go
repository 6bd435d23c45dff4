package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/report"
	"tpsrace/safetext"
	"tpsrace/tokens"
)

// benchCmd is `tpsrace bench`: races without the dashboard and prints the
// leaderboard (table, json, csv or markdown).
type benchCmd struct {
	race   raceFlags
	fleet  fleetFlags
	runs   int
	format string
	out    string
	record string
	finish int
}

// errAllFailed: the bench ran, but no stream completed.
var errAllFailed = errors.New("every stream failed (see the report)")

func (c *benchCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace bench", flag.ContinueOnError)
	c.race.register(fs)
	c.fleet.register(fs)
	fs.IntVar(&c.runs, "runs", 1, "races to run one after another")
	fs.StringVar(&c.format, "format", "table", "output: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&c.out, "out", "", "write the report to this file instead of stdout (checked before any request)")
	fs.IntVar(&c.finish, "finish-at", 0, "rank by the time to N output tokens (streams that stop short are marked), not by output speed")
	fs.StringVar(&c.record, "record", "", "also record every race to this file (tpsrace.race/v1, gzipped when it ends in .gz; see tpsrace replay); - writes it to stdout and the report to stderr (unless --out), for kubectl logs | tpsrace merge -")
	return fs
}

func (c *benchCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if err := c.parse(args, stdout, stderr); err != nil {
		return err
	}
	s, race, err := c.race.startHeadless(ctx, c.runs, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	if s.levels != nil && c.fleet.startAt != "" {
		return usageError{errors.New("--start-at releases one race at one instant; a sweep races one per level, the others unsynchronised")}
	}
	if err := c.fleet.stillAhead(time.Now()); err != nil {
		return err
	}
	race.StartAt = c.fleet.start
	if !c.fleet.start.IsZero() {
		fmt.Fprintf(stderr, "%s: release at %s (in %s), clock %s\n", c.fleet.probeName, c.fleet.start.UTC().Format(time.RFC3339Nano),
			time.Until(c.fleet.start).Round(time.Millisecond), c.fleet.clock)
	}
	in := benchdoc.Input{Config: s.cfg, Concurrency: c.race.concurrency, Planned: c.runs, StartedAt: time.Now(), FinishAt: c.finish, StartAt: c.fleet.start}
	if !c.fleet.start.IsZero() {
		in.Clock = &c.fleet.clock
	}
	rec, stdout, err := c.recorder(s, in, stdout, stderr)
	if err != nil {
		return err
	}
	record := func(results [][]probes.Result) {
		if rec != nil {
			rec.Race(results) // its error comes back from Close
		}
	}
	before := serverTotals(ctx, s.cfg)
	var doc *benchdoc.Bench
	if s.levels != nil {
		sweep := c.sweep(ctx, s.cfg, race, s.levels, record, stderr)
		sweep.Input, sweep.Interrupted = in, ctx.Err() != nil
		collectRaces()
		doc = benchdoc.BuildSweep(sweep)
	} else {
		in.Races = c.raceRuns(ctx, s.cfg, race, record, stderr)
		in.Interrupted = ctx.Err() != nil
		collectRaces()
		doc = benchdoc.Build(in)
	}
	interrupted := ctx.Err() != nil
	if rec != nil {
		if err := rec.Close(interrupted); err != nil {
			fmt.Fprintf(stderr, "tpsrace: recording %s: %v\n", c.record, err)
		} else {
			fmt.Fprintln(stderr, "recorded", c.record)
		}
	}
	reportServerTotals(before, serverTotals(context.WithoutCancel(ctx), s.cfg), stderr)

	b := report.Of(doc)
	if err := writeReport(b, c.format, c.out, stdout, stderr); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	return anyCompleted(b)
}

// collectRaces collects the garbage of the races just run, before the
// report is built: every stream's connection state, read buffers and
// goroutine stacks (about 40 KB a stream) became garbage at once, and the
// report's own allocations (about 17 MB at C=1024), made before the
// collector came round, grew the heap past what the races had used:
// bench's peak memory was its report's, 2–8 MB over the race's at C=1024
// (docs/BENCHMARKS.md, "Scale on one box"). Once a bench, after every
// race, so no stream is measured during it: about 10 ms of CPU at C=1024.
func collectRaces() { runtime.GC() }

// parse reads and checks the flags, before anything is sent.
func (c *benchCmd) parse(args []string, stdout, stderr io.Writer) error {
	fs := c.flags()
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("bench takes no arguments, got %q (see: tpsrace help bench)", fs.Args())}
	}
	if c.runs < 1 {
		return usageError{fmt.Errorf("--runs must be at least 1, got %d", c.runs)}
	}
	if err := checkFormat(c.format); err != nil {
		return err
	}
	if c.fleet.startAt != "" && c.runs > 1 {
		return usageError{fmt.Errorf("--start-at releases one race at one instant; --runs %d would start the others unsynchronised (run again with a new --start-at)", c.runs)}
	}
	if err := c.fleet.resolve(time.Now(), stderr); err != nil {
		return err
	}
	if c.finish < 0 {
		return usageError{fmt.Errorf("--finish-at must not be negative, got %d", c.finish)}
	}
	for flag, path := range map[string]string{"--out": c.out, "--record": c.record} {
		if path == "-" && flag == "--record" {
			continue
		}
		if err := checkOutput(flag, path, "nothing was sent"); err != nil {
			return err
		}
	}
	return nil
}

// recorder opens --record's recording of the race in, if asked: with
// --record - stdout carries the recording alone, and the report goes to
// stderr (the stdout returned).
func (c *benchCmd) recorder(s *session, in benchdoc.Input, stdout, stderr io.Writer) (*recording.Writer, io.Writer, error) {
	concurrency := c.race.concurrency
	if s.levels != nil {
		concurrency = s.levels[0] // the document's body is the first level's
	}
	header := c.fleet.header(recording.NewHeader(s.cfg, concurrency, in.StartedAt))
	header.FinishAt, header.Runs = c.finish, c.runs
	header.Sweep = s.levels
	switch c.record {
	case "":
		return nil, stdout, nil
	case "-":
		return recording.NewWriter(stdout, header, s.cfg, false), stderr, nil
	}
	rec, err := recording.Create(c.record, header, s.cfg)
	return rec, stdout, err
}

// raceRuns runs --runs races of race (a run of a long-context workload
// races each size in turn, of cached-prefix cold then warm), passing each
// to record; it stops early when ctx ends.
func (c *benchCmd) raceRuns(ctx context.Context, cfg *config.Config, race probes.Race, record func([][]probes.Result), stderr io.Writer) [][][]probes.Result {
	seq, conv := cfg.Workload.Sequence(), &probes.Conversation{}
	races := c.runs * seq.PerRun()
	progress := newProgress(stderr, len(cfg.Providers)*max(race.Concurrency, 1), races)
	race.Tokens = &progress.tokens
	var all [][][]probes.Result
	for run := range races {
		if ctx.Err() != nil {
			break
		}
		step, nonce := seq.Next(time.Now())
		race.Request.InputTokens, race.Request.Nonce = step.InputTokens, nonce
		race.Request = conv.Turn(race.Request, step.FollowUps)
		updates := make(chan probes.Update, 1024)
		drained := make(chan struct{})
		go func() {
			defer close(drained)
			progress.follow(run, updates)
		}()
		results := race.Run(ctx, updates)
		close(updates)
		<-drained
		all = append(all, results)
		conv.Heard(results)
		record(results)
	}
	progress.finish()
	return all
}

// checkFormat is a usage error unless format is one report.Write takes.
func checkFormat(format string) error {
	if !slices.Contains(append(report.Formats, "md"), format) {
		return usageError{fmt.Errorf("--format %q: want one of %s", format, strings.Join(report.Formats, ", "))}
	}
	return nil
}

// writeReport puts the report in out, else on stdout. When out cannot be
// written after all (the disk filled, the folder went away), the report goes
// to stdout instead, so a race is never lost.
func writeReport(b *report.Bench, format, out string, stdout, stderr io.Writer) error {
	if out == "" {
		return b.Write(stdout, format)
	}
	var buf bytes.Buffer
	if err := b.Write(&buf, format); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		if _, werr := stdout.Write(buf.Bytes()); werr != nil {
			return fmt.Errorf("writing the report: %w, and to stdout: %w", err, werr)
		}
		return fmt.Errorf("could not write the report (%w): it is on stdout instead", err)
	}
	fmt.Fprintln(stderr, "wrote", out)
	return nil
}

// anyCompleted is errAllFailed when no stream of b completed.
func anyCompleted(b *report.Bench) error {
	for _, p := range b.Providers {
		if p.Summary.OK > 0 {
			return nil
		}
	}
	return errAllFailed
}

// progress is the line bench keeps on stderr while it runs: rewritten in
// place on a terminal, one line per finished race otherwise (logs, CI).
// The race adds its text tokens to tokens as they arrive
// (probes.Race.Tokens) and sends only the streams' ends and tool deltas:
// the line reads the count on its own tick, so no event wakes it.
type progress struct {
	w           io.Writer
	tty         bool
	streams     int
	runs        int
	done, fails int
	toolTokens  int          // a tool call's arguments are its output: "0 tokens" would read as nothing came
	tokens      atomic.Int64 // the race's text tokens so far
}

func newProgress(w io.Writer, streams, runs int) *progress {
	if sw, ok := w.(safetext.Writer); ok {
		w = sw.W // only figures are written here, and "\r" must reach the terminal
	}
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && isTerminal(f), streams: streams, runs: runs}
}

// follow shows race run's progress until its updates close, then clears
// the counts for the next race.
func (p *progress) follow(run int, updates <-chan probes.Update) {
	var tick <-chan time.Time
	if p.tty {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case u, ok := <-updates:
			if !ok {
				p.done, p.fails, p.toolTokens = 0, 0, 0
				p.tokens.Store(0)
				return
			}
			p.update(run, u)
		case <-tick:
			p.show(run)
		}
	}
}

func (p *progress) update(run int, u probes.Update) {
	switch {
	case u.Tool != nil:
		p.toolTokens += tokens.Count(u.Tool.Arguments)
	case u.Done != nil:
		p.done++
		if !u.Done.OK() {
			p.fails++
		}
	}
	if p.done < p.streams {
		return
	}
	if p.tty {
		p.show(run)
	} else {
		fmt.Fprintf(p.w, "race %d/%d: %s done, %d failed, %s\n", run+1, p.runs, format.Plural(p.done, "stream"), p.fails, format.Plural(p.count(), "token"))
	}
}

// show rewrites the line on the terminal.
func (p *progress) show(run int) {
	fmt.Fprintf(p.w, "\rrace %d/%d: %d/%d streams done, %d failed, %s   ", run+1, p.runs, p.done, p.streams, p.fails, format.Plural(p.count(), "token"))
}

func (p *progress) count() int { return int(p.tokens.Load()) + p.toolTokens }

func (p *progress) finish() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
