package cli

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"tpsrace/buildinfo"
)

const usage = `tpsrace races one prompt against LLM providers and shows who is fastest.

Usage:
  tpsrace [flags]          open the race dashboard
  tpsrace bench [flags]    race without the dashboard and print the leaderboard
  tpsrace sim [flags]      run the simulated OpenAI-compatible server alone
  tpsrace watch [flags]    race on a schedule and serve the figures to Prometheus
  tpsrace report FILE…     summarise watch history and bench JSON files
  tpsrace check [flags]    validate providers.yaml; ask each provider for its models (no tokens)
  tpsrace replay FILE      replay a recorded race (--record) with no network or keys
  tpsrace merge FILE…      join the recordings of one --start-at from many hosts into one race
  tpsrace version          print the version, commit and Go version
  tpsrace help [COMMAND]   print this help, or a command's

Without providers.yaml (or with no API key set) tpsrace races its built-in
simulated providers.

`

// helpTopics are the commands "tpsrace help COMMAND" explains: a line of
// what it does and its flags (nil: none).
var helpTopics = map[string]struct {
	about string
	flags func() *flag.FlagSet
}{
	"bench": {"tpsrace bench [flags]: race without the dashboard and print the leaderboard.", func() *flag.FlagSet { return (&benchCmd{}).flags() }},
	"sim":   {"tpsrace sim [flags]: run the simulated OpenAI-compatible server alone.", func() *flag.FlagSet { return (&simCmd{}).flags() }},
	"watch": {"tpsrace watch [flags]: race on a schedule and serve the figures to Prometheus (docs/WATCH.md).", func() *flag.FlagSet { return (&watchCmd{}).flags() }},
	"report": {"tpsrace report FILE… [flags]: summarise watch history and bench JSON files (flags may stand among the files);\n" +
		"tpsrace report --compare A.json B.json: two results side by side.", func() *flag.FlagSet { return (&reportCmd{}).flags() }},
	"check": {"tpsrace check [flags]: validate providers.yaml and ask each provider GET /models whether it serves its model (no tokens).", func() *flag.FlagSet { return (&checkCmd{}).flags() }},
	"merge": {"tpsrace merge A.tpsr B.tpsr… --out race.tpsr: join the recordings of one --start-at instant, made by many probes,\n" +
		"into one race whose lanes are provider@probe (- reads recordings concatenated on stdin, e.g. kubectl logs; docs/FLEET.md).", func() *flag.FlagSet { return (&mergeCmd{}).flags() }},
	"version": {"tpsrace version (or --version): print the version, the commit and the Go version it was built with.", nil},
}

// help prints the help of topic ("" for tpsrace itself: the commands, then
// the dashboard's flags).
func help(topic string, w io.Writer) error {
	if topic == "" {
		fmt.Fprint(w, usage+"Dashboard flags:\n")
		printFlags((&dashCmd{}).flags(), w)
		return nil
	}
	t, ok := helpTopics[topic]
	if !ok {
		return usageError{fmt.Errorf("help: no command %q (want bench, sim, watch, report, check, merge or version)", topic)}
	}
	fmt.Fprintf(w, "%s\n", t.about)
	if t.flags != nil {
		fmt.Fprint(w, "\nFlags:\n")
		printFlags(t.flags(), w)
	}
	return nil
}

func printFlags(fs *flag.FlagSet, w io.Writer) {
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// parseFlags parses a command's args. -h prints the command's help on
// stdout (flag.ErrHelp then exits 0); a bad flag is a usage error that
// points to the help, without printing the whole of it.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	topic := strings.TrimPrefix(strings.TrimPrefix(fs.Name(), "tpsrace"), " ")
	switch {
	case errors.Is(err, flag.ErrHelp):
		if herr := help(topic, stdout); herr != nil {
			return herr
		}
		return flag.ErrHelp
	case err != nil:
		return usageError{fmt.Errorf("%w (see: tpsrace help %s)", err, topic)}
	}
	return nil
}

// version prints what this binary is: the module version, the commit it was
// built from (with "-dirty" when it had uncommitted changes) and the Go
// release, all from the build information Go embeds.
func version(w io.Writer) {
	info := buildinfo.Read()
	v, commit, goVersion := cmp.Or(info.Version, "(unknown)"), cmp.Or(info.Commit, "unknown"), cmp.Or(info.Go, "unknown")
	if info.Commit == "" && info.Go != "" {
		commit = "unknown (built without VCS information)"
	}
	fmt.Fprintf(w, "tpsrace %s\ncommit %s\n%s\n", v, commit, goVersion)
}
