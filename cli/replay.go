package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"tpsrace/benchdoc"
	"tpsrace/recording"
	"tpsrace/report"
	"tpsrace/ui"
	"tpsrace/ui/theme"
)

// replayCmd is `tpsrace replay FILE`: a recorded race again, with no
// network, no keys and no config.
type replayCmd struct {
	bench   bool
	format  string
	out     string
	race    int
	cast    string
	size    string
	speed   float64
	finish  int
	present bool
	theme   string
}

func (c *replayCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tpsrace replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: tpsrace replay FILE [flags]   (FILE: a recording, tpsrace.race/v1; see docs/RECORDING.md)")
		fs.PrintDefaults()
	}
	fs.BoolVar(&c.bench, "bench", false, "print the bench report of the recorded races instead of showing the dashboard")
	fs.StringVar(&c.format, "format", "table", "with --bench: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&c.out, "out", "", "with --bench: write the report to this file instead of stdout")
	fs.StringVar(&c.cast, "cast", "", "render the dashboard replay into this asciicast v2 file (asciinema play) instead of showing it")
	fs.StringVar(&c.size, "size", "120x40", "with --cast: the terminal size, WIDTHxHEIGHT")
	fs.Float64Var(&c.speed, "speed", 1, "with --cast: playback speed (2 = twice as fast)")
	fs.IntVar(&c.finish, "finish-at", 0, "rank by the time to N output tokens (as bench and the dashboard do)")
	fs.BoolVar(&c.present, "present", false, "the dashboard (and --cast) in presenter mode, as tpsrace --present")
	fs.StringVar(&c.theme, "theme", "", "the dashboard's colours, as tpsrace --theme")
	fs.IntVar(&c.race, "race", 1, "the dashboard (and --cast) show this race of the recording (1 = the first)")
	path, err := parseWithFile(fs, args)
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
	// A broken file replays what it holds, says so on screen and in the
	// report, and the command ends with its error (exit 1): where it broke.
	rec, readErr := recording.Open(path)
	if rec == nil {
		return readErr
	}
	if !c.bench {
		replay, err := c.pick(rec)
		if err != nil {
			return err
		}
		in := rec.Report()
		opts := ui.Options{Config: in.Config, Concurrency: in.Concurrency, Replay: replay, FinishAt: max(c.finish, 0),
			Present: c.present, Theme: palette, SaveDir: ".", Save: saveJSON, Record: saveRecording}
		if c.cast != "" {
			err = c.writeCast(opts, stderr)
		} else if f, ok := stdout.(*os.File); !ok || !isTerminal(f) {
			return usageError{fmt.Errorf("the dashboard needs a terminal; for scripts use: tpsrace replay %s --bench", path)}
		} else {
			err = ui.Run(ctx, opts)
		}
		return cmp.Or(err, readErr)
	}
	// Which build measured the races, beside the report (stdout stays the
	// report alone, equal to the live one).
	fmt.Fprintln(stderr, "tpsrace: replaying "+path+": "+rec.Header.Made())
	in := rec.Report()
	in.FinishAt = max(c.finish, 0)
	b := report.Of(benchdoc.Build(in))
	if err := writeReport(b, c.format, c.out, stdout, stderr); err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	return anyCompleted(b)
}

// writeCast renders the replay into c.cast, in 256 colours on a dark
// background (plain text with NO_COLOR).
func (c *replayCmd) writeCast(opts ui.Options, stderr io.Writer) error {
	var width, height int
	if _, err := fmt.Sscanf(c.size, "%dx%d", &width, &height); err != nil || width < 40 || height < 12 {
		return usageError{fmt.Errorf("--size %q: want WIDTHxHEIGHT, at least 40x12 (e.g. 120x40)", c.size)}
	}
	if c.speed < 0.1 || c.speed > 10 {
		return usageError{fmt.Errorf("--speed %v: want 0.1 to 10", c.speed)}
	}
	profile := termenv.ANSI256
	if os.Getenv("NO_COLOR") != "" {
		profile = termenv.Ascii
	}
	lipgloss.SetColorProfile(profile)
	lipgloss.SetHasDarkBackground(true)
	f, err := os.Create(c.cast)
	if err != nil {
		return err
	}
	err = ui.WriteCast(f, opts, width, height, c.speed)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		fmt.Fprintln(stderr, "wrote", c.cast, "(asciinema play "+c.cast+")")
	}
	return err
}

// pick is the race --race names, for the dashboard: a whole race, or the
// one a break cut (after them), shown as cut.
func (c *replayCmd) pick(rec *recording.Recording) (*ui.Replay, error) {
	races := rec.Races
	if rec.Cut != nil {
		races = append(slices.Clone(races), *rec.Cut)
	}
	if c.race < 1 || c.race > len(races) {
		return nil, usageError{fmt.Errorf("--race %d: the recording holds %d race(s)", c.race, len(races))}
	}
	return &ui.Replay{Results: races[c.race-1].Results, RecordedAt: rec.Header.RecordedAt, Made: rec.Header.Made(),
		Truncation: rec.Truncation(), Cut: c.race > len(rec.Races)}, nil
}

// parseWithFile parses flags given before or after the one FILE argument.
func parseWithFile(fs *flag.FlagSet, args []string) (string, error) {
	if err := fs.Parse(args); err != nil {
		return "", usageError{err}
	}
	if fs.NArg() == 0 {
		return "", usageError{fmt.Errorf("%s needs a FILE (a recording: tpsrace bench --record FILE)", fs.Name())}
	}
	path := fs.Arg(0)
	if err := fs.Parse(fs.Args()[1:]); err != nil {
		return "", usageError{err}
	}
	if fs.NArg() > 0 {
		return "", usageError{fmt.Errorf("%s takes one FILE, got also %q", fs.Name(), fs.Args())}
	}
	return path, nil
}
