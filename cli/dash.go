package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/report"
	"tpsrace/ui"
	"tpsrace/ui/theme"
)

// dashCmd is `tpsrace`: the live race dashboard.
type dashCmd struct {
	race    raceFlags
	theme   string
	present bool
}

func (c *dashCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tpsrace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.race.register(fs)
	fs.StringVar(&c.theme, "theme", "", "colours: dark, light (for a white background) or high-contrast (default: by the terminal's background)")
	fs.BoolVar(&c.present, "present", false, "presenter mode: 3-2-1 countdown, big tok/s, podium; provider names only; high contrast unless --theme")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	palette, err := theme.ParseName(c.theme)
	if err != nil {
		return usageError{fmt.Errorf("--theme: %w", err)}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unknown command %q (want bench or sim; see tpsrace help)", fs.Arg(0))}
	}
	if f, ok := stdout.(*os.File); !ok || !isTerminal(f) {
		return usageError{fmt.Errorf("the dashboard needs a terminal; for scripts and pipes use: tpsrace bench --format json")}
	}
	s, err := c.race.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	// The dashboard starts the local servers itself, loading in their lanes,
	// and applies what start found to its own copy of the providers: start
	// works on a copy of the config, never on the one the dashboard reads.
	prepare := func(ctx context.Context, progress func(provider int, msg string)) []ui.Prepared {
		cfg := *s.cfg
		cfg.Providers = slices.Clone(s.cfg.Providers)
		errs := s.local.start(ctx, &cfg, c.race.concurrency, progress)
		found := make([]ui.Prepared, len(errs))
		for i, p := range cfg.Providers {
			found[i] = ui.Prepared{BaseURL: p.BaseURL, Detail: s.local.info[p.Name], Err: errs[i]}
		}
		return found
	}
	return ui.Run(ctx, ui.Options{Config: s.cfg, Concurrency: c.race.concurrency, Retries: c.race.retries, SaveDir: ".",
		Theme: palette, Present: c.present, Warm: c.race.warm, Prepare: prepare, Save: saveJSON})
}

// saveJSON writes the dashboard's races as the same JSON `tpsrace bench` writes.
func saveJSON(w io.Writer, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error {
	return report.Build(report.Input{Config: cfg, Concurrency: concurrency, Races: races, Interrupted: interrupted}).WriteJSON(w)
}
