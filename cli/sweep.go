package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/workload"
)

// checkSweep reads --sweep's levels (config.ParseSweep's rule), which
// replace --concurrency's one level.
func (f *raceFlags) checkSweep() error {
	if !f.given("sweep") {
		return nil
	}
	levels, err := config.ParseSweep(f.sweepText)
	if err != nil {
		return usageError{fmt.Errorf("--sweep %w", err)}
	}
	if f.given("concurrency") {
		return usageError{errors.New("--sweep races each of its levels in turn, --concurrency one level: give one of them")}
	}
	f.sweep = levels
	return nil
}

// levels are the sweep's concurrencies: --sweep's, else the file's
// sweep: unless --concurrency was given; nil for a race at one level. A
// sweep races the chat workload: the other workloads' figures are not the
// per-user and aggregate speeds the curve is drawn from.
func (f *raceFlags) levels(cfg *config.Config) ([]int, error) {
	levels, from := f.sweep, "--sweep"
	if levels == nil && !f.given("concurrency") {
		levels, from = cfg.Sweep, cfg.Path+": sweep:"
	}
	if levels != nil && !cfg.Workload.Is(workload.Chat) {
		return nil, usageError{fmt.Errorf("%s: a concurrency sweep races the chat workload, not %s (its figures are per-user and aggregate speeds)", from, cfg.Workload.Label())}
	}
	return levels, nil
}

// sweep races each level in turn (benchdoc.Climb), --runs races at each,
// saying on stderr which level it is at and why it stopped climbing, if it
// did. record is called with each race.
func (c *benchCmd) sweep(ctx context.Context, cfg *config.Config, race probes.Race, levels []int, record func([][]probes.Result), stderr io.Writer) benchdoc.SweepInput {
	in := benchdoc.SweepInput{Asked: levels}
	in.Levels, in.Stopped = benchdoc.Climb(ctx, race, levels, func(race probes.Race) [][][]probes.Result {
		fmt.Fprintf(stderr, "sweep: C=%d (%d of %d)\n", race.Concurrency, slices.Index(levels, race.Concurrency)+1, len(levels))
		return c.raceRuns(ctx, cfg, race, record, stderr)
	})
	if in.Stopped != "" {
		fmt.Fprintln(stderr, "sweep:", in.Stopped)
	}
	return in
}
