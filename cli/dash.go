package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/report"
	"tpsrace/ui"
)

// saveDir is where the dashboard's s key writes its results.
const saveDir = "."

// dashCmd is `tpsrace`: the live race dashboard.
type dashCmd struct {
	race raceFlags
}

func (c *dashCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace", flag.ContinueOnError)
	c.race.register(fs)
	return fs
}

func (c *dashCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := c.flags()
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unknown command %q (want bench, watch, report, check or sim; see tpsrace help)", fs.Arg(0))}
	}
	if err := checkDirWritable(saveDir); err != nil {
		return usageError{fmt.Errorf("the dashboard saves races (s) in this folder, and cannot write it: %w; run it from a folder you can write", err)}
	}
	if f, ok := stdout.(*os.File); !ok || !isTerminal(f) {
		return usageError{fmt.Errorf("the dashboard needs a terminal; for scripts and pipes use: tpsrace bench --format json")}
	}
	s, err := c.race.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	c.race.preflight(s.cfg, 1, stderr)
	// The dashboard starts the local servers itself, loading in their lanes:
	// start sets their base URLs in s.cfg and fills s.local.info and slots,
	// all read by the dashboard only once start has returned.
	prepare := func(ctx context.Context, progress func(provider int, msg string)) []error {
		return s.local.start(ctx, s.cfg, progress)
	}
	return ui.Run(ctx, ui.Options{Config: s.cfg, Concurrency: c.race.concurrency, Retries: c.race.retries, SaveDir: saveDir,
		Details: s.local.info, Slots: s.local.slots, Prepare: prepare, Save: saveJSON})
}

// saveJSON writes the dashboard's races as the same JSON `tpsrace bench` writes.
func saveJSON(w io.Writer, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error {
	return report.Build(report.Input{Config: cfg, Concurrency: concurrency, Races: races, Interrupted: interrupted}).WriteJSON(w)
}
