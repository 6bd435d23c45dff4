package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/report"
	"tpsrace/ui"
	"tpsrace/ui/theme"
)

// saveDir is where the dashboard's s key writes its results.
const saveDir = "."

// dashCmd is `tpsrace`: the live race dashboard.
type dashCmd struct {
	race    raceFlags
	fleet   fleetFlags
	theme   string
	present bool
	record  string
	heats   int
	finish  int
}

func (c *dashCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace", flag.ContinueOnError)
	c.race.register(fs)
	c.fleet.register(fs)
	fs.StringVar(&c.theme, "theme", "", "colours: dark, light (for a white background) or high-contrast (default: by the terminal's background)")
	fs.BoolVar(&c.present, "present", false, "presenter mode: 3-2-1 countdown, big tok/s, podium; provider names only; high contrast unless --theme")
	fs.IntVar(&c.finish, "finish-at", 0, "finish line at N output tokens: the leaderboard ranks by the time to N (streams that stop short are named)")
	fs.IntVar(&c.heats, "heats", 1, "race N heats back to back (under a workload each heat is a whole run) and give the verdict over the heats")
	fs.StringVar(&c.record, "record", "", "record the finished races to this file, rewritten after each race, and on a stop mid-race (q, ctrl+c, SIGTERM) the race in flight, marked interrupted (tpsrace.race/v1; see tpsrace replay)")
	return fs
}

func (c *dashCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := c.flags()
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if c.finish < 0 {
		return usageError{fmt.Errorf("--finish-at must not be negative, got %d", c.finish)}
	}
	if c.heats < 1 {
		return usageError{fmt.Errorf("--heats must be at least 1, got %d", c.heats)}
	}
	palette, err := theme.ParseName(c.theme)
	if err != nil {
		return usageError{fmt.Errorf("--theme: %w", err)}
	}
	if fs.NArg() > 0 {
		return unknownCommand(fs.Arg(0))
	}
	if err := c.race.check(); err != nil {
		return err
	}
	if c.race.sweep != nil { // a file's sweep: is checked once the file is read
		if err := c.checkSweep(); err != nil {
			return err
		}
	}
	if err := checkDirWritable(saveDir); err != nil {
		return usageError{fmt.Errorf("the dashboard saves races (s) in this folder, and cannot write it: %w; run it from a folder you can write", err)}
	}
	if f, ok := stdout.(*os.File); !ok || !isTerminal(f) {
		return usageError{fmt.Errorf("the dashboard needs a terminal; for scripts and pipes use: tpsrace bench --format json")}
	}
	if err := c.fleet.resolve(time.Now(), stderr); err != nil {
		return err
	}
	// Seen on screen, labelled SIMULATED, the built-in providers may stand
	// in when nothing else can race (a fresh machine, no keys).
	c.race.fallback = true
	go probes.Warm() // as startHeadless does
	s, err := c.race.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	if s.levels, err = c.race.levels(s.cfg); err != nil {
		return err
	}
	if s.levels != nil { // --sweep, or the file's sweep: without --concurrency
		if err := c.checkSweep(); err != nil {
			return err
		}
		return c.sweep(ctx, s, palette, stderr)
	}
	c.race.preflight(s.cfg, []int{c.race.concurrency}, 1, stderr)
	// The dashboard starts the local servers itself, loading in their lanes,
	// and applies what start found to its own copy of the providers: start
	// works on a copy of the config, never on the one the dashboard reads.
	prepare := func(ctx context.Context, progress func(provider int, msg string)) []ui.Prepared {
		cfg := *s.cfg
		cfg.Providers = slices.Clone(s.cfg.Providers)
		errs := s.local.start(ctx, &cfg, progress)
		found := make([]ui.Prepared, len(errs))
		for i, p := range cfg.Providers {
			found[i] = ui.Prepared{BaseURL: p.BaseURL, Detail: s.local.info[p.Name], Slots: s.local.slots[p.Name], Err: errs[i], Box: p.Box}
		}
		return found
	}
	return ui.Run(ctx, ui.Options{Config: s.cfg, Concurrency: c.race.concurrency, Retries: c.race.retries, SaveDir: saveDir,
		Theme: palette, Present: c.present, Warm: c.race.warm, Prepare: prepare, Save: saveJSON(c.finish), Record: c.saveRecording, RecordPath: c.record, Heats: c.heats, FinishAt: c.finish,
		StartAt: c.fleet.start, Note: c.fleet.note()})
}

// saveJSON is the dashboard's Save (`s`): its races as the same JSON
// `tpsrace bench --finish-at finishAt` writes, ranked and decided as the
// screen does.
func saveJSON(finishAt int) func(io.Writer, *config.Config, int, [][][]probes.Result, bool) error {
	return func(w io.Writer, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error {
		in := benchdoc.Input{Config: cfg, Concurrency: concurrency, Races: races, Interrupted: interrupted, FinishAt: finishAt}
		return report.Of(benchdoc.Build(in)).WriteJSON(w)
	}
}

// saveRecording is a replay's Record (`s`): its races as a recording
// (tpsrace replay) run to the finish line finishAt (0: none).
func saveRecording(finishAt int) func(string, *config.Config, int, [][][]probes.Result, bool) error {
	return func(path string, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error {
		h := recording.NewHeader(cfg, concurrency, time.Time{})
		h.FinishAt = finishAt
		return recording.WriteFile(path, h, cfg, races, interrupted)
	}
}

// saveRecording writes the dashboard's races as a recording that names
// its probe, its finish line and, with --start-at, its instant and clock.
func (c *dashCmd) saveRecording(path string, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error {
	h := c.fleet.header(recording.NewHeader(cfg, concurrency, time.Time{}))
	h.FinishAt = c.finish
	return recording.WriteFile(path, h, cfg, races, interrupted)
}
