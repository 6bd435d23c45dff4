package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"tpsrace/benchdoc"
	"tpsrace/recording"
	"tpsrace/report"
)

// reportCmd is `tpsrace report`: summarises watch history files (JSON
// lines) and bench JSON files, or compares two of them.
type reportCmd struct {
	format  string
	out     string
	compare bool
	force   bool
}

func (c *reportCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace report", flag.ContinueOnError)
	fs.StringVar(&c.format, "format", "markdown", "output: "+strings.Join(report.OverviewFormats, ", "))
	fs.StringVar(&c.out, "out", "", "write the report to this file instead of stdout")
	fs.BoolVar(&c.compare, "compare", false, "put two results (A B) side by side with the change of each figure (markdown or csv)")
	fs.BoolVar(&c.force, "force", false, "--compare two results of different setups (prompt, max_tokens, concurrency, workload) anyway")
	return fs
}

func (c *reportCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	files, err := parseInterleaved(c.flags(), args, stdout)
	if err != nil {
		return err
	}
	if !slices.Contains(append(report.OverviewFormats, "md"), c.format) {
		return usageError{fmt.Errorf("--format %q: want one of %s", c.format, strings.Join(report.OverviewFormats, ", "))}
	}
	switch {
	case c.compare && len(files) != 2:
		return usageError{fmt.Errorf("--compare takes two files (A B), got %d", len(files))}
	case c.compare && c.format == "html":
		return usageError{errors.New("--compare writes markdown or csv")}
	case len(files) == 0:
		return usageError{errors.New("report needs at least one history or bench JSON file")}
	}
	if err := checkOutput("--out", c.out, "no file was read"); err != nil {
		return err
	}
	var all [][]report.Record
	for _, f := range files {
		records, err := readRecords(f, stderr)
		if err != nil {
			return usageError{err}
		}
		all = append(all, records)
	}
	var changes []report.Change
	if c.compare { // refused before --out is written
		if changes, err = report.Compare(report.Summarise(all[0]), report.Summarise(all[1]), c.force); err != nil {
			return usageError{fmt.Errorf("--compare A=%s B=%s: %w", files[0], files[1], err)}
		}
	}

	w := stdout
	if c.out != "" {
		f, err := os.Create(c.out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if c.compare {
		err = report.WriteComparison(w, changes, files[0], files[1], c.format)
	} else {
		records := slices.Concat(all...)
		o := report.Summarise(records)
		if c.format == "html" {
			err = o.WriteHTML(w, records, files)
		} else {
			err = o.Write(w, c.format)
		}
	}
	if err == nil && c.out != "" {
		fmt.Fprintln(stderr, "wrote", c.out)
	}
	return err
}

// parseInterleaved parses flags wherever they stand among the arguments
// (`report a.jsonl --format csv b.jsonl`), returning the arguments in order.
func parseInterleaved(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	var rest []string
	for {
		if err := parseFlags(fs, args, stdout); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// readRecords reads a history or bench JSON file or a recording: a
// recording gives one document per probe (a merged race, one per host,
// each provider under its own name), so the report shows each provider
// across probes and per probe.
func readRecords(path string, stderr io.Writer) ([]report.Record, error) {
	rec, err := recording.Open(path)
	if rec == nil {
		return report.ReadRecords(path)
	}
	if err != nil {
		fmt.Fprintln(stderr, "tpsrace: warning:", err)
	}
	inputs, probes := rec.PerProbe()
	records := make([]report.Record, len(inputs))
	for i, in := range inputs {
		records[i] = report.Record{Bench: *benchdoc.Build(in), Probe: probes[i]}
	}
	return records, nil
}
