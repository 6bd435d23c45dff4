package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"tpsrace/buildinfo"
	"tpsrace/config"
)

// command is one of tpsrace's commands: how Main runs it and what its help
// says. The dashboard (no command) is not among them: it is tpsrace itself.
type command struct {
	name    string
	usage   string // the usage line
	summary string // what it does, in the list of commands
	about   string // more, in its own help ("" for none)
	example string
	flags   func() *flag.FlagSet // nil: it takes none
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists tpsrace's commands in the order help shows them. A function,
// not a variable: help, which the list holds, reads the list.
func commands() []command {
	return []command{
		{name: "bench", usage: "tpsrace bench [flags]", summary: "race without the dashboard and print the leaderboard",
			example: "tpsrace bench --runs 5 --format markdown --out results.md",
			flags:   func() *flag.FlagSet { return (&benchCmd{}).flags() }, run: (&benchCmd{}).run},
		{name: "sim", usage: "tpsrace sim [flags]", summary: "run the simulated OpenAI-compatible server alone",
			example: "tpsrace sim --addr 127.0.0.1:8088",
			flags:   func() *flag.FlagSet { return (&simCmd{}).flags() }, run: (&simCmd{}).run},
		{name: "watch", usage: "tpsrace watch [flags]", summary: "race on a schedule and serve the figures to Prometheus",
			about:   "See docs/WATCH.md for the metrics, the alerts and the deploy/ files.",
			example: "tpsrace watch --interval 5m --history history.jsonl",
			flags:   func() *flag.FlagSet { return (&watchCmd{}).flags() }, run: (&watchCmd{}).run},
		{name: "report", usage: "tpsrace report FILE… [flags]", summary: "summarise watch history and bench JSON files",
			about:   "Flags may stand among the files. tpsrace report --compare A.json B.json puts two results side by side.",
			example: "tpsrace report history.jsonl --format html --out report.html",
			flags:   func() *flag.FlagSet { return (&reportCmd{}).flags() }, run: (&reportCmd{}).run},
		{name: "check", usage: "tpsrace check [flags]", summary: "validate providers.yaml; ask each provider for its models (no tokens)",
			about:   "Each provider is asked GET /models whether it serves its model.",
			example: "tpsrace check --config providers.yaml",
			flags:   func() *flag.FlagSet { return (&checkCmd{}).flags() }, run: (&checkCmd{}).run},
		{name: "replay", usage: "tpsrace replay FILE [flags]", summary: "replay a recorded race (--record) with no network or keys",
			about:   "FILE is a recording (tpsrace.race/v1, written by --record; see docs/RECORDING.md). Flags may stand before or after it.",
			example: "tpsrace replay race.tpsr --bench --format markdown",
			flags:   func() *flag.FlagSet { return (&replayCmd{}).flags() }, run: (&replayCmd{}).run},
		{name: "merge", usage: "tpsrace merge FILE… --out FILE", summary: "join the recordings of one --start-at from many hosts into one race",
			about:   "Lanes are provider@probe; - reads recordings concatenated on stdin (kubectl logs). See docs/FLEET.md.",
			example: "tpsrace merge fra.tpsr iad.tpsr sin.tpsr --out race.tpsr",
			flags:   func() *flag.FlagSet { return (&mergeCmd{}).flags() }, run: (&mergeCmd{}).run},
		{name: "version", usage: "tpsrace version", summary: "print the version, commit and Go version",
			about: "Also tpsrace --version.", example: "tpsrace version",
			run: func(_ context.Context, args []string, stdout, _ io.Writer) error {
				if len(args) > 0 {
					return usageError{fmt.Errorf("version takes no arguments, got %q (see: tpsrace help version)", args)}
				}
				version(stdout)
				return nil
			}},
		{name: "help", usage: "tpsrace help [COMMAND]", summary: "print this help, or a command's (also: tpsrace COMMAND --help)",
			example: "tpsrace help bench",
			run: func(_ context.Context, args []string, stdout, _ io.Writer) error {
				if len(args) > 1 {
					return usageError{fmt.Errorf("help takes one COMMAND, got %q (see: tpsrace help help)", args)}
				}
				return help(strings.Join(args, ""), stdout)
			}},
	}
}

// findCommand returns the command named name.
func findCommand(name string) (command, bool) {
	cmds := commands()
	i := slices.IndexFunc(cmds, func(c command) bool { return c.name == name })
	if i < 0 {
		return command{}, false
	}
	return cmds[i], true
}

// unknownCommand refuses a name that is no command, suggesting the nearest
// and listing them all.
func unknownCommand(name string) error {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return usageError{fmt.Errorf("unknown command %q%s The commands are %s; without one tpsrace opens the dashboard (see: tpsrace help)",
		name, didYouMean(name, names, ""), strings.Join(names, ", "))}
}

// help prints the help of topic: "" for tpsrace itself (the commands, then
// the dashboard's flags), else a command's usage line, what it does, an
// example and its flags.
func help(topic string, w io.Writer) error {
	if topic == "" {
		fmt.Fprint(w, "tpsrace races one prompt against LLM providers and shows who is fastest.\n\nUsage:\n")
		fmt.Fprintf(w, "  %-30s %s\n", "tpsrace [flags]", "open the race dashboard")
		for _, c := range commands() {
			fmt.Fprintf(w, "  %-30s %s\n", c.usage, c.summary)
		}
		fmt.Fprint(w, "\nWhen nothing else can race (no providers.yaml, or no key set) the dashboard races the built-in\n"+
			"simulated providers, labelled SIMULATED; bench, watch and check use them only with --simulated.\n\n"+
			"Example:\n  tpsrace --config providers.yaml --concurrency 4\n\nDashboard flags:\n")
		printFlags((&dashCmd{}).flags(), w)
		return nil
	}
	c, ok := findCommand(topic)
	if !ok {
		return unknownCommand(topic)
	}
	fmt.Fprintf(w, "Usage: %s\n\n%s.\n", c.usage, strings.ToUpper(c.summary[:1])+c.summary[1:])
	if c.about != "" {
		fmt.Fprintln(w, c.about)
	}
	fmt.Fprintf(w, "\nExample:\n  %s\n", c.example)
	if c.flags != nil {
		fmt.Fprint(w, "\nFlags:\n")
		printFlags(c.flags(), w)
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
	see := strings.TrimSpace("tpsrace help " + topic)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if herr := help(topic, stdout); herr != nil {
			return herr
		}
		return flag.ErrHelp
	case err != nil:
		return usageError{fmt.Errorf("%s (see: %s)", flagError(fs, err), see)}
	}
	return nil
}

// flagError rewrites the flag package's errors the way the flags are
// documented (--name), and answers an unknown flag with the nearest one
// and the list of them all.
func flagError(fs *flag.FlagSet, err error) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + name + " needs a value"
	}
	name, unknown := strings.CutPrefix(msg, "flag provided but not defined: -")
	if !unknown {
		return strings.NewReplacer(" for flag -", " for --", " for -", " for --").Replace(msg)
	}
	if other, ok := sameRaces[name]; ok && slices.Contains(names, other) {
		return "unknown flag --" + name + "; did you mean --" + other + "? (the dashboard's heats are bench's runs)"
	}
	return "unknown flag --" + name + didYouMean(name, names, "--") + " The flags are --" + strings.Join(names, ", --")
}

// sameRaces: the dashboard races N heats where bench races N runs, one
// idea under the word each screen uses; the other command's flag is named.
var sameRaces = map[string]string{"heats": "runs", "runs": "heats"}

// didYouMean ends the sentence that refused name: with the nearest of
// names by edit distance, as config keys and --only do, or a full stop.
func didYouMean(name string, names []string, prefix string) string {
	if near := config.Closest(name, names); near != "" {
		return "; did you mean " + prefix + near + "?"
	}
	return "."
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
