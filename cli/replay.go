package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tpsrace/recording"
	"tpsrace/report"
	"tpsrace/ui"
)

// replayCmd is `tpsrace replay FILE`: a recorded race again, with no
// network, no keys and no config.
type replayCmd struct {
	bench  bool
	format string
	out    string
	race   int
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
	fs.IntVar(&c.race, "race", 1, "the dashboard (and --cast) show this race of the recording (1 = the first)")
	path, err := parseWithFile(fs, args)
	if err != nil {
		return err
	}
	if err := checkFormat(c.format); err != nil {
		return err
	}
	rec, readErr := recording.Open(path)
	if rec == nil {
		return readErr
	}
	if readErr != nil {
		// A broken file replays what it holds; the error says where it broke.
		fmt.Fprintln(stderr, "tpsrace: warning:", readErr)
	}
	if !c.bench {
		replay, err := c.pick(rec)
		if err != nil {
			return err
		}
		if f, ok := stdout.(*os.File); !ok || !isTerminal(f) {
			return usageError{fmt.Errorf("the dashboard needs a terminal; for scripts use: tpsrace replay %s --bench", path)}
		}
		in := rec.Report()
		return ui.Run(ctx, ui.Options{Config: in.Config, Concurrency: in.Concurrency, Replay: replay, SaveDir: ".", Save: saveJSON, Record: saveRecording})
	}
	b := report.Build(rec.Report())
	if err := writeReport(b, c.format, c.out, stdout, stderr); err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	return anyCompleted(b)
}

// pick is the race --race names, for the dashboard.
func (c *replayCmd) pick(rec *recording.Recording) (*ui.Replay, error) {
	if c.race < 1 || c.race > len(rec.Races) {
		return nil, usageError{fmt.Errorf("--race %d: the recording holds %d race(s)", c.race, len(rec.Races))}
	}
	return &ui.Replay{Results: rec.Races[c.race-1].Results, RecordedAt: rec.Header.RecordedAt}, nil
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
