package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/ui"
	"tpsrace/ui/sweepview"
	"tpsrace/ui/theme"
)

// checkSweep refuses what a dashboard sweep cannot honour, before
// anything is sent: a finish line ranks one race, not a curve, and
// --start-at releases one race while a sweep races one per level.
func (c *dashCmd) checkSweep() error {
	switch {
	case c.finish > 0:
		return usageError{errors.New("--finish-at ranks one race by the time to N tokens; a sweep's curve is per-user and aggregate speed (leave one out)")}
	case c.fleet.startAt != "":
		return usageError{errors.New("--start-at releases one race at one instant; a sweep races one per level, the others unsynchronised")}
	}
	return nil
}

// sweep races s's levels on the dashboard's sweep view (ui/sweepview),
// --heats races at each, as bench --sweep would: local servers started
// first (their progress on stderr, before the screen is taken), and with
// --record every race recorded as bench's sweep recording is, marked
// interrupted when the sweep was cut short. q is a plain quit, ctrl+c or a
// signal an interruption, as on the race dashboard.
func (c *dashCmd) sweep(ctx context.Context, s *session, palette theme.Name, stderr io.Writer) error {
	race, err := c.race.readyHeadless(ctx, s, c.heats, stderr)
	if err != nil {
		return err
	}
	ui.SetUpTerminal()
	opts := sweepview.Options{Config: s.cfg, Levels: s.levels, Race: race, Runs: c.heats, Present: c.present,
		Palette: ui.Options{Theme: palette, Present: c.present}.Palette()}
	var rec *recording.Writer
	if c.record != "" {
		h := recording.NewHeader(s.cfg, s.levels[0], time.Now()) // the document's body is the first level's
		h.Sweep = s.levels
		if rec, err = recording.Create(c.record, h, s.cfg); err != nil {
			return err
		}
		opts.Record = func(results [][]probes.Result) { rec.Race(results) } // its error comes back from Close
	}
	end, err := sweepview.Run(ctx, opts)
	if rec != nil {
		if cerr := rec.Close(!end.Finished); cerr != nil {
			return errors.Join(err, fmt.Errorf("recording %s: %w", c.record, cerr))
		}
		fmt.Fprintln(stderr, "recorded", c.record)
	}
	if err == nil && end.Interrupted {
		return errInterrupted
	}
	return err
}

// replaySweep shows a recorded sweep on the dashboard's sweep view, as the
// live sweep ended (every level, the knees, why it stopped). Its pictures
// (--cast, --gif, --svg) are the race dashboard's frames, which a sweep has
// not: report --format html draws its curve.
func (c *replayCmd) replaySweep(ctx context.Context, rec *recording.Recording, readErr error, path string, look dashboardLook, stdout io.Writer) error {
	if c.cast != "" || c.gif != "" || c.svg != "" {
		return usageError{fmt.Errorf("%s is a concurrency sweep: --cast, --gif and --svg film a race, not a sweep (tpsrace replay %s --bench --format json, then tpsrace report --format html, draws its curve)", path, path)}
	}
	if f, ok := stdout.(*os.File); !ok || !isTerminal(f) {
		return usageError{fmt.Errorf("the dashboard needs a terminal; for scripts use: tpsrace replay %s --bench", path)}
	}
	in := rec.SweepReport()
	ui.SetUpTerminal()
	_, err := sweepview.Run(ctx, sweepview.Options{Config: in.Config, Levels: in.Asked, Raced: in.Levels, Stopped: in.Stopped,
		Present: c.present, Palette: ui.Options{Theme: look.palette, Present: c.present}.Palette()})
	return cmp.Or(err, readErr)
}
