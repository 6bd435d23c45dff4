package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"tpsrace/recording"
	"tpsrace/report"
)

// replayCmd is `tpsrace replay FILE`: a recorded race again, with no
// network, no keys and no config.
type replayCmd struct {
	bench  bool
	format string
	out    string
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
		return usageError{fmt.Errorf("the dashboard replay is not built yet: use tpsrace replay %s --bench", path)}
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
