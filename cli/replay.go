package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"tpsrace/benchdoc"
	"tpsrace/format"
	"tpsrace/picture"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/report"
	"tpsrace/ui"
	"tpsrace/ui/theme"
)

// replayCmd is `tpsrace replay FILE`: a recorded race again, with no
// network, no keys and no config.
type replayCmd struct {
	bench    bool
	format   string
	out      string
	race     int
	cast     string
	gif, svg string
	fps      int
	pixels   string
	size     string
	speed    float64
	finish   int
	present  bool
	theme    string
	by       string
	workload string
}

func (c *replayCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace replay", flag.ContinueOnError)
	fs.BoolVar(&c.bench, "bench", false, "print the bench report of the recorded races instead of showing the dashboard")
	fs.StringVar(&c.format, "format", "table", "with --bench: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&c.out, "out", "", "with --bench: write the report to this file instead of stdout (checked before the recording is read)")
	fs.StringVar(&c.cast, "cast", "", "render the dashboard replay into this asciicast v2 file (asciinema play) instead of showing it")
	fs.StringVar(&c.gif, "gif", "", "render the dashboard replay into this animated GIF (for slides) instead of showing it")
	fs.StringVar(&c.svg, "svg", "", "render the dashboard replay into this animated SVG (for a README: GitHub plays it) instead of showing it")
	fs.StringVar(&c.size, "size", "120x40", "with --cast, --gif, --svg: the terminal size in cells, WIDTHxHEIGHT")
	fs.StringVar(&c.pixels, "pixels", "1280x720", "with --gif, --svg: the picture's size in pixels, WIDTHxHEIGHT; the terminal's cells (--size) fill it")
	fs.IntVar(&c.fps, "fps", 10, fmt.Sprintf("with --gif, --svg: frames a second, 1 to %d", picture.MaxFPS))
	fs.Float64Var(&c.speed, "speed", 1, "with --cast, --gif, --svg: playback speed (2 = twice as fast)")
	fs.IntVar(&c.finish, "finish-at", 0, "rank by the time to N output tokens (as bench and the dashboard do); default: the recorded race's finish line, if it had one")
	fs.BoolVar(&c.present, "present", false, "the dashboard (and --cast, --gif, --svg) in presenter mode, as tpsrace --present")
	fs.StringVar(&c.theme, "theme", "", "the dashboard's colours, as tpsrace --theme")
	fs.StringVar(&c.by, "by", "lane", "with --bench, for a merged race (tpsrace merge): lane (provider@probe) or provider (each provider's streams on every probe together)")
	fs.StringVar(&c.workload, "workload", "", "the workload the recording must hold; a replay shows what was raced, so another is refused (the recording says which: chat, tool-call, …)")
	fs.IntVar(&c.race, "race", 1, "the dashboard (and --cast, --gif, --svg) show this race of the recording (1 = the first)")
	return fs
}

func (c *replayCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	path, err := parseReplayArgs(c.flags(), args, stdout)
	if err != nil {
		return err
	}
	if err := checkFormat(c.format); err != nil {
		return err
	}
	palette, err := theme.ParseName(c.theme)
	if err != nil {
		return usageError{fmt.Errorf("--theme: %w", err)}
	}
	if c.workload != "" {
		if _, err := namedWorkload(c.workload); err != nil {
			return err
		}
	}
	if c.by != "lane" && c.by != "provider" {
		return usageError{fmt.Errorf("--by %q: want lane or provider", c.by)}
	}
	width, height, err := c.castSize()
	if err != nil {
		return err
	}
	pictures, err := c.checkOutputs(width, height)
	if err != nil {
		return err
	}
	// A broken file replays what it holds, says so on screen and in the
	// report, and the command ends with its error (exit 1): where it broke.
	rec, readErr := recording.Open(path)
	if rec == nil { // nothing to replay: a refusal, as a bad flag is
		var pe *fs.PathError
		if errors.As(readErr, &pe) {
			return usageError{fmt.Errorf("cannot read the recording %s: %w", path, pe.Err)}
		}
		return usageError{readErr} // it names the file and the line
	}
	if raced := rec.Report().Config.Workload.Label(); c.workload != "" && c.workload != raced {
		return usageError{fmt.Errorf("--workload %s: %s was raced under %s, and a replay shows what was raced (leave --workload out)", c.workload, path, raced)}
	}
	if !c.bench {
		return c.replayDashboard(ctx, rec, readErr, path, dashboardLook{palette, width, height, pictures}, stdout, stderr)
	}
	return c.replayBench(rec, readErr, path, stdout, stderr)
}

// dashboardLook is how a dashboard replay is drawn: its theme, and the
// terminal size and options of --cast, --gif and --svg.
type dashboardLook struct {
	palette       theme.Name
	width, height int
	pictures      picture.Options
}

// replayDashboard replays rec on the dashboard (or into --cast, --gif,
// --svg); a sweep on the sweep view (replaySweep).
func (c *replayCmd) replayDashboard(ctx context.Context, rec *recording.Recording, readErr error, path string, look dashboardLook, stdout, stderr io.Writer) error {
	if rec.Header.Sweep != nil {
		return c.replaySweep(ctx, rec, readErr, path, look, stdout)
	}
	replay, err := c.pick(rec)
	if err != nil {
		return err
	}
	in := rec.Report()
	finishAt := cmp.Or(max(c.finish, 0), in.FinishAt)
	opts := ui.Options{Config: in.Config, Concurrency: in.Concurrency, Replay: replay, FinishAt: finishAt,
		Present: c.present, Theme: look.palette, SaveDir: ".", Save: saveJSON(finishAt), Record: saveRecording(finishAt)}
	if c.cast != "" || c.gif != "" || c.svg != "" {
		err = c.writeFiles(opts, look.width, look.height, look.pictures, stderr)
	} else if f, ok := stdout.(*os.File); !ok || !isTerminal(f) {
		return usageError{fmt.Errorf("the dashboard needs a terminal; for scripts use: tpsrace replay %s --bench", path)}
	} else {
		err = ui.Run(ctx, opts)
	}
	return cmp.Or(err, readErr)
}

// replayBench writes rec's bench report, as the live bench wrote it (a
// sweep's with every level: recording.SweepReport).
func (c *replayCmd) replayBench(rec *recording.Recording, readErr error, path string, stdout, stderr io.Writer) error {
	// Which build measured the races, beside the report (stdout stays the
	// report alone, equal to the live one).
	fmt.Fprintln(stderr, "tpsrace: replaying "+path+": "+rec.Header.Made())
	if skew := rec.StartSkew(); skew != "" {
		fmt.Fprintln(stderr, "tpsrace: a merged race: "+skew)
	}
	in := rec.Report()
	if c.by == "provider" {
		in = rec.ByProvider()
	}
	in.FinishAt = cmp.Or(max(c.finish, 0), in.FinishAt)
	doc := benchdoc.Build(in)
	if rec.Header.Sweep != nil {
		sweep := rec.SweepReport()
		sweep.Input.FinishAt = in.FinishAt
		doc = benchdoc.BuildSweep(sweep)
	}
	b := report.Of(doc)
	if err := writeReport(b, c.format, c.out, stdout, stderr); err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	return anyCompleted(b)
}

// castSize checks --size and --speed, which only --cast, --gif and --svg
// read, and returns their terminal size.
func (c *replayCmd) castSize() (width, height int, err error) {
	if _, err := fmt.Sscanf(c.size, "%dx%d", &width, &height); err != nil || width < 40 || height < 12 {
		return 0, 0, usageError{fmt.Errorf("--size %q: want WIDTHxHEIGHT, at least 40x12 (e.g. 120x40)", c.size)}
	}
	if c.speed < 0.1 || c.speed > 10 {
		return 0, 0, usageError{fmt.Errorf("--speed %v: want 0.1 to 10", c.speed)}
	}
	return width, height, nil
}

// checkOutputs checks the files to write and the pictures' options before
// the recording is read, and returns those options.
func (c *replayCmd) checkOutputs(width, height int) (picture.Options, error) {
	var pictures picture.Options
	if c.gif != "" || c.svg != "" {
		var err error
		if pictures, err = c.pictureOptions(width, height); err != nil {
			return pictures, err
		}
	}
	for flag, out := range map[string]string{"--out": c.out, "--cast": c.cast, "--gif": c.gif, "--svg": c.svg} {
		if err := checkOutput(flag, out, "the recording was not read"); err != nil {
			return pictures, err
		}
	}
	return pictures, nil
}

// pick is the race --race names, for the dashboard: a whole race, or the
// one a break cut (after them), shown as cut.
func (c *replayCmd) pick(rec *recording.Recording) (*ui.Replay, error) {
	races := rec.Races
	if rec.Cut != nil {
		races = append(slices.Clone(races), *rec.Cut)
	}
	if c.race < 1 || c.race > len(races) {
		return nil, usageError{fmt.Errorf("--race %d: the recording holds %s", c.race, format.Plural(len(races), "race"))}
	}
	var before [][][]probes.Result
	for _, r := range races[:c.race-1] {
		before = append(before, r.Results)
	}
	return &ui.Replay{Results: races[c.race-1].Results, Before: before, RecordedAt: rec.Header.RecordedAt, Made: rec.Header.Made(),
		Truncation: rec.Truncation(), Cut: c.race > len(rec.Races), Interrupted: rec.Interrupted && c.race == len(rec.Races)}, nil
}

// parseReplayArgs parses flags given before or after the one FILE argument.
func parseReplayArgs(fs *flag.FlagSet, args []string, stdout io.Writer) (string, error) {
	files, err := parseInterleaved(fs, args, stdout)
	switch {
	case err != nil:
		return "", err
	case len(files) == 0:
		return "", usageError{errors.New("replay needs a FILE, the recording to replay (written by tpsrace bench --record FILE). " +
			"Usage: tpsrace replay FILE [flags] (see: tpsrace help replay)")}
	case len(files) > 1:
		return "", usageError{fmt.Errorf("replay takes one FILE, got %d: %q (see: tpsrace help replay)", len(files), files)}
	}
	return files[0], nil
}
