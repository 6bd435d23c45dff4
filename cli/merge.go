package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tpsrace/recording"
)

// stdin is what `merge -` reads; tests replace it.
var stdin io.Reader = os.Stdin

// mergeCmd is `tpsrace merge`: the recordings of one --start-at instant,
// made on many hosts, joined into one race whose lanes are provider@probe.
type mergeCmd struct {
	out string
}

func (c *mergeCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace merge", flag.ContinueOnError)
	fs.StringVar(&c.out, "out", "", "write the merged recording to this file (required; .gz gzips it)")
	return fs
}

func (c *mergeCmd) run(_ context.Context, args []string, stdout, stderr io.Writer) error {
	files, err := parseInterleaved(c.flags(), args, stdout)
	if err != nil {
		return err
	}
	switch {
	case c.out == "":
		return usageError{errors.New("merge needs --out FILE for the merged recording")}
	case len(files) == 0:
		return usageError{errors.New("merge needs recordings: FILE… (each from bench --start-at --record), or - for recordings concatenated on stdin (kubectl logs)")}
	}
	if err := checkOutput("--out", c.out, "no recording was read"); err != nil {
		return err
	}
	var recs []recording.Named
	for _, f := range files {
		if f == "-" {
			read, skipped, err := recording.ReadConcatenated(stdin, "stdin")
			if err != nil {
				return usageError{err}
			}
			if skipped > 0 {
				fmt.Fprintf(stderr, "stdin: %d lines that are not recording lines (logs, progress) skipped\n", skipped)
			}
			recs = append(recs, read...)
			continue
		}
		rec, err := recording.Open(f)
		if err != nil {
			return usageError{err}
		}
		recs = append(recs, recording.Named{Name: f, Recording: rec})
	}
	for _, r := range recs {
		if n := len(r.Races); n > 1 {
			fmt.Fprintf(stderr, "%s holds %d races: its first, the one released at --start-at, is merged\n", r.Name, n)
		}
		if r.Interrupted {
			fmt.Fprintf(stderr, "%s was interrupted: its race holds what was measured\n", r.Name)
		}
	}
	merged, err := recording.Merge(recs)
	if err != nil {
		return usageError{err}
	}
	if err := merged.Save(c.out); err != nil {
		return err
	}
	var names []string
	for _, p := range merged.Header.Probes {
		names = append(names, p.Name)
	}
	fmt.Fprintf(stderr, "merged %d probes (%s) into %d lanes: %s; wrote %s\n", len(names), strings.Join(names, ", "),
		len(merged.Header.Providers), merged.StartSkew(), c.out)
	return nil
}
