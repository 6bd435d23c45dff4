package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/probes"
	"tpsrace/safetext"
)

// checkCmd is `tpsrace check`: validates providers.yaml and asks each
// provider whether it serves the configured model, spending no tokens.
type checkCmd struct {
	race raceFlags
}

// errCheckFailed: the config is valid, but some provider is unreachable or
// does not serve its model.
var errCheckFailed = errors.New("some providers did not pass (see above)")

func (c *checkCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace check", flag.ContinueOnError)
	fs.StringVar(&c.race.configPath, "config", "", configUsage)
	fs.BoolVar(&c.race.simulated, "simulated", false, simulatedUsage)
	fs.StringVar(&c.race.only, "only", "", "comma-separated provider names to check (default: all)")
	return fs
}

func (c *checkCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := c.flags()
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("check takes no arguments, got %q (see: tpsrace help check)", fs.Args())}
	}
	c.race.concurrency, c.race.checking = 1, true
	s, err := c.race.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	if s.cfg.Path != "" {
		line := fmt.Sprintf("%s: valid; checking %s", s.cfg.Path, format.Plural(len(s.cfg.Providers), "provider"))
		if n := len(s.cfg.Skipped); n > 0 {
			line += fmt.Sprintf(", %d skipped (see above)", n)
		}
		fmt.Fprintln(stdout, line)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	failed := false
	client := &http.Client{}
	defer client.CloseIdleConnections()
	for _, p := range s.cfg.Providers {
		verdict, ok := checkProvider(ctx, p, client)
		failed = failed || !ok
		// The model ids come from the server: plain text only.
		fmt.Fprintf(tw, "%s\t%s\t%s\n", safetext.Line(p.Name), safetext.Line(p.Model), safetext.Line(verdict))
	}
	tw.Flush()
	if failed {
		return errCheckFailed
	}
	return nil
}

// checkProvider says whether p serves its model, and whether that passes.
func checkProvider(ctx context.Context, p config.Provider, client *http.Client) (string, bool) {
	if p.Spawned() {
		return "ok: tpsrace starts llama-server with this model file at race time (not listed now)", true
	}
	c, err := probes.CheckModel(ctx, p, client)
	switch {
	case err != nil:
		return "FAILED: GET /models: " + err.Error(), false
	case p.Model == "":
		return fmt.Sprintf("ok: the server serves %s", strings.Join(c.Models, ", ")), true
	case c.Listed:
		return "ok: listed among " + format.Plural(len(c.Models), "model"), true
	case c.Served:
		return fmt.Sprintf("ok: not among the %d listed, but GET /models/%s knows it", len(c.Models), p.Model), true
	}
	return fmt.Sprintf("NOT SERVED: not among the %s listed%s", format.Plural(len(c.Models), "model"), closest(p.Model, c.Models)), false
}

// closest names up to three listed models that share a word of at least
// four letters' beginning with want ("laptopp" and "sim:laptop"), to point
// at a typo or a renamed model.
func closest(want string, models []string) string {
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return strings.ContainsRune("-_/:.,= ", r) })
	}
	similar := func(m string) bool {
		for _, a := range words(want) {
			for _, b := range words(m) {
				n := 0
				for n < min(len(a), len(b)) && a[n] == b[n] {
					n++
				}
				if n >= 4 {
					return true
				}
			}
		}
		return false
	}
	var near []string
	for _, m := range models {
		if similar(m) && len(near) < 3 {
			near = append(near, m)
		}
	}
	if len(near) == 0 {
		return ""
	}
	return " (similar: " + strings.Join(near, ", ") + ")"
}
