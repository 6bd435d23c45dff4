// Package cli holds tpsrace's commands. Each command is an options struct
// (its flags, documented in one place) and a run method; main only hands off.
package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/sim"
	"tpsrace/workload"
)

// exitUsage is the exit status for bad flags or a bad providers.yaml.
const exitUsage = 2

// usageError is an error the user fixes in the command line or the config file.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// raceFlags are the flags every racing command shares.
type raceFlags struct {
	configPath  string
	prompt      string
	maxTokens   int
	concurrency int
	only        string
	retries     int
	warm        bool
	timeouts    config.Timeouts
	slo         config.SLO // --slo-ttft, --slo-output-tps, --slo-e2e: each overrides that bound of every provider's SLO
	workload    string     // --workload NAME: overrides the file's
	inputTokens string     // --input-tokens 1000,8000: long-context's sizes
	// simulated races the built-in simulated providers on purpose
	// (--simulated). Without it only the dashboard, which labels them on
	// screen, falls back to them (fallback), and only when nothing else can
	// race: bench, watch and check feed files, scripts and Prometheus, where
	// invented numbers must never pass for measured ones.
	simulated bool
	fallback  bool
	checking  bool          // check: it races nothing, so its messages say "checking"
	sweepText string        // --sweep 1,4,16,64
	sweep     []int         // --sweep's levels, once check has read them (levels adds the file's)
	flags     *flag.FlagSet // where they were registered, to tell a flag given from its default
}

// configUsage and simulatedUsage are the help of --config and --simulated,
// which check registers too.
const (
	configUsage    = "providers file (default ./providers.yaml when present)"
	simulatedUsage = "race the built-in simulated providers (labelled SIMULATED) instead of a providers file"
)

func (f *raceFlags) register(fs *flag.FlagSet) {
	f.flags = fs
	fs.StringVar(&f.configPath, "config", "", configUsage)
	fs.BoolVar(&f.simulated, "simulated", false, simulatedUsage)
	fs.StringVar(&f.prompt, "prompt", "", "prompt to race (overrides the file's prompt)")
	fs.IntVar(&f.maxTokens, "max-tokens", 0, "max_tokens for every provider (overrides the file's)")
	fs.IntVar(&f.concurrency, "concurrency", 1, fmt.Sprintf("simultaneous streams (users) per provider, at most %d", maxConcurrency))
	fs.StringVar(&f.only, "only", "", "comma-separated provider names to race (default: all)")
	fs.IntVar(&f.retries, "retries", 0, "retry a request that fails before its first byte up to N times (recorded as retries)")
	fs.BoolVar(&f.warm, "warm", false, "open every stream's connection (TLS included) before each release, so TTFT measures the model, not the handshake")
	fs.StringVar(&f.workload, "workload", "", "what to race: "+strings.Join(workload.Names, ", ")+" (default: the file's, else chat)")
	fs.StringVar(&f.inputTokens, "input-tokens", "", "long-context: comma-separated prompt sizes in o200k tokens, raced one after the other (default 1000,8000,32000); cached-prefix: the prefix's size (default 8000)")
	fs.StringVar(&f.sweepText, "sweep", "", "bench and watch: race each concurrency in turn, every provider at once at each, such as 1,4,16,64: a concurrency sweep and each provider's knee (docs/SWEEP.md; overrides the file's sweep:)")
	fs.DurationVar(&f.timeouts.Connect, "connect-timeout", 0, "limit until response headers (default from file, else 10s)")
	fs.DurationVar(&f.timeouts.FirstToken, "first-token-timeout", 0, "limit until the first token (default from file, else 60s)")
	fs.DurationVar(&f.timeouts.Stall, "stall-timeout", 0, "longest silence between bytes (default from file, else 20s)")
	fs.DurationVar(&f.timeouts.Total, "total-timeout", 0, "limit for a whole stream (default from file, else 5m)")
	fs.DurationVar(&f.slo.TTFT, "slo-ttft", 0, "SLO bound on time to first token, for goodput (overrides the file's slo.ttft)")
	fs.Float64Var(&f.slo.OutputTPS, "slo-output-tps", 0, "SLO bound on per-user output speed in tok/s (overrides the file's slo.output_tps)")
	fs.DurationVar(&f.slo.E2E, "slo-e2e", 0, "SLO bound on a whole answer's time (overrides the file's slo.e2e)")
}

// session is a loaded race: its config and whatever must be stopped after it.
type session struct {
	cfg   *config.Config
	known []string // every provider name considered, for --only's message
	file  string   // the providers file read, "" for none
	sims  []string // the built-in simulated providers' names when they race (before --only)
	why   string   // why they race: "--simulated was given", "no providers.yaml here", …
	local *local
	close func()
	// levels: a concurrency sweep's (raceFlags.levels), nil without one.
	levels []int
}

// load resolves the flags into a race: the providers file (explicit, else
// ./providers.yaml when present) minus skipped providers, or the built-in
// simulated providers with --simulated (or, on the dashboard only, when none
// remain); else it refuses, naming why. Notices and warnings go to stderr,
// once --only has been checked: a mistyped name prints its error alone.
func (f *raceFlags) load(ctx context.Context, stderr io.Writer) (*session, error) {
	var notices bytes.Buffer
	s, err := f.resolve(ctx, &notices)
	if err != nil {
		return nil, err
	}
	s.local.stderr = stderr // not the notices': the servers stop long after they are written
	if err := f.checkOnly(s); err != nil {
		s.close()
		return nil, err
	}
	_, err = notices.WriteTo(stderr)
	return s, err
}

func (f *raceFlags) resolve(ctx context.Context, stderr io.Writer) (*session, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	path := f.configPath
	if path == "" && !f.simulated {
		if _, err := os.Stat("providers.yaml"); err == nil {
			path = "providers.yaml"
		}
	}
	cfg := &config.Config{Prompt: config.DefaultPrompt, MaxTokens: config.DefaultMaxTokens}
	if path != "" {
		loaded, warnings, err := config.Load(path, os.LookupEnv)
		if err != nil {
			return nil, usageError{err}
		}
		for _, w := range warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
		for _, n := range loaded.Skipped {
			fmt.Fprintln(stderr, n)
		}
		cfg = loaded
	}
	if f.prompt != "" {
		cfg.Prompt = f.prompt
	}
	if f.maxTokens > 0 {
		cfg.MaxTokens = f.maxTokens
	}
	if err := f.applyWorkload(cfg); err != nil {
		return nil, err
	}
	s := &session{cfg: cfg, known: names(cfg), file: path, local: &local{info: map[string]string{}, slots: map[string]int{}}}
	f.keepOnly(cfg)
	skipLocal(ctx, cfg, stderr)
	s.close = s.local.stop
	if len(cfg.Providers) == 0 && !f.simulated && !f.fallback {
		if f.only != "" && len(cfg.Skipped) < len(s.known) {
			return nil, f.checkOnly(s) // some could race, but not those --only named
		}
		return nil, nothingToRace(s)
	}
	if len(cfg.Providers) == 0 {
		switch {
		case f.simulated:
			s.why = "--simulated was given"
		case path == "":
			s.why = "no providers.yaml here"
		case len(s.known) == 0:
			s.why = path + " has no providers"
		default:
			s.why = path + ": no provider left to race (see above)"
		}
		url, stopSim, err := startSimulator()
		if err != nil {
			return nil, fmt.Errorf("starting the built-in simulator: %w", err)
		}
		s.close = func() { stopSim(); s.local.stop() }
		cfg.Providers = sim.DemoProviders(url)
		for _, p := range cfg.Providers {
			s.sims = append(s.sims, p.Name)
		}
		s.known = append(s.known, s.sims...)
		f.keepOnly(cfg)
		doing := "racing"
		if f.checking {
			doing = "checking"
		}
		fmt.Fprintln(stderr, s.why+": "+doing+" the built-in SIMULATED providers")
	}
	for i := range cfg.Providers {
		p := &cfg.Providers[i]
		p.Timeout = f.timeouts.Or(p.Timeout).Or(config.DefaultTimeouts)
		p.SLO = f.slo.Or(p.SLO)
	}
	cfg.SLO = f.slo.Or(cfg.SLO)
	return s, nil
}

// applyWorkload sets --workload and --input-tokens over the file's
// workload. A tool-call race without a prompt of its own asks for the
// weather (workload.ToolPrompt): the default prompt gives no arguments.
func (f *raceFlags) applyWorkload(cfg *config.Config) error {
	if f.workload != "" && f.workload != cfg.Workload.Label() {
		w, err := namedWorkload(f.workload)
		if err != nil {
			return err
		}
		cfg.Workload = w
	}
	if err := f.checkToolCallSLO(cfg.Workload); err != nil {
		return err
	}
	if f.inputTokens != "" {
		if !cfg.Workload.Is(workload.LongContext) && !cfg.Workload.Is(workload.CachedPrefix) {
			return usageError{fmt.Errorf("--input-tokens applies only to --workload %s or %s", workload.LongContext, workload.CachedPrefix)}
		}
		var sizes []int
		for _, item := range strings.Split(f.inputTokens, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(item))
			if err != nil || n < 1 {
				return usageError{fmt.Errorf("--input-tokens %q: want whole numbers from 1, comma-separated, such as 1000,8000,32000", f.inputTokens)}
			}
			sizes = append(sizes, n)
		}
		if cfg.Workload.Is(workload.CachedPrefix) && len(sizes) > 1 {
			return usageError{fmt.Errorf("--input-tokens %q: cached-prefix takes one size, the prefix's", f.inputTokens)}
		}
		cfg.Workload.InputTokens = sizes
	}
	if err := cfg.CheckWorkloadParams(); err != nil {
		return usageError{err}
	}
	if cfg.Workload.Is(workload.ToolCall) && f.prompt == "" && cfg.Prompt == config.DefaultPrompt {
		cfg.Prompt = workload.ToolPrompt
	}
	if cfg.Workload.Is(workload.JSON) && f.prompt == "" && cfg.Prompt == config.DefaultPrompt {
		cfg.Prompt = workload.JSONPrompt
	}
	return nil
}

// checkToolCallSLO refuses --slo-ttft and --slo-output-tps under the
// tool-call workload: both bound the answer's text, and a tool call's
// answer has none (no TTFT, no output speed), so every stream would miss
// them and the goodput would read 0 of every provider for no fault of its.
func (f *raceFlags) checkToolCallSLO(w workload.Workload) error {
	if !w.Is(workload.ToolCall) {
		return nil
	}
	for _, b := range []struct {
		flag string
		set  bool
	}{{"--slo-ttft", f.slo.TTFT > 0}, {"--slo-output-tps", f.slo.OutputTPS > 0}} {
		if b.set {
			return usageError{fmt.Errorf("%s under --workload %s: a tool call's answer has no text, so no stream has a TTFT or an output speed and every one would miss the bound; bound the whole answer with --slo-e2e (its time to a complete call)", b.flag, workload.ToolCall)}
		}
	}
	return nil
}

// namedWorkload is --workload's workload with its defaults, or the
// refusal of a name tpsrace does not know.
func namedWorkload(name string) (workload.Workload, error) {
	w, ok := workload.Named(name)
	if !ok {
		msg := fmt.Sprintf("--workload %q: want one of %s", name, strings.Join(workload.Names, ", "))
		if c := config.Closest(name, workload.Names); c != "" {
			msg += fmt.Sprintf("; did you mean %s?", c)
		}
		return w, usageError{errors.New(msg)}
	}
	return w, nil
}

// check refuses flags no race can use, before anything is read or started.
func (f *raceFlags) check() error {
	switch {
	case f.concurrency < 1 || f.concurrency > maxConcurrency:
		return usageError{fmt.Errorf("--concurrency must be 1 to %d streams per provider, got %d (more measures this machine's sockets, not the provider)", maxConcurrency, f.concurrency)}
	case f.maxTokens < 0 || f.given("max-tokens") && f.maxTokens == 0:
		return usageError{fmt.Errorf("--max-tokens must be at least 1, got %d (leave it out for the file's max_tokens, else %d)", f.maxTokens, config.DefaultMaxTokens)}
	case f.given("prompt") && strings.TrimSpace(f.prompt) == "":
		return usageError{errors.New("--prompt is empty: give the text to race (leave it out for the file's prompt, else the built-in one)")}
	case f.retries < 0:
		return usageError{fmt.Errorf("--retries must not be negative, got %d", f.retries)}
	case f.slo.TTFT < 0 || f.slo.E2E < 0 || f.slo.OutputTPS < 0 || f.slo.OutputTPS != f.slo.OutputTPS:
		return usageError{fmt.Errorf("--slo-ttft, --slo-output-tps and --slo-e2e must not be negative (got %v, %v, %v)", f.slo.TTFT, f.slo.OutputTPS, f.slo.E2E)}
	case f.simulated && f.configPath != "":
		return usageError{fmt.Errorf("--simulated races the built-in simulated providers, --config %s a providers file: give one of them", f.configPath)}
	}
	return f.checkSweep()
}

// given reports whether the flag was on the command line.
func (f *raceFlags) given(name string) bool {
	found := false
	if f.flags != nil {
		f.flags.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	}
	return found
}

// nothingToRace refuses a headless race with nothing to race, naming each
// provider of the file and why it was skipped.
func nothingToRace(s *session) error {
	const instead = "to race the built-in simulated providers instead, pass --simulated"
	if s.file == "" {
		return usageError{fmt.Errorf("nothing to race: no providers.yaml here and no --config FILE (see docs/CONFIG.md); %s", instead)}
	}
	var why []string
	for _, n := range s.cfg.Skipped {
		why = append(why, n.Provider+" ("+n.Reason+")")
	}
	if len(why) == 0 {
		return usageError{fmt.Errorf("%s has no providers; %s", s.file, instead)}
	}
	return usageError{fmt.Errorf("%s: no provider can race: %s skipped: %s; %s", s.file, format.OneOrMany(len(why), "it was", "all were"), strings.Join(why, "; "), instead)}
}

// preflight says, before anything is sent, what a large race may cost and
// whether this process may open enough sockets for it: a race at each of
// levels (one level without a sweep), runs times.
func (f *raceFlags) preflight(cfg *config.Config, levels []int, runs int, stderr io.Writer) {
	streams, most := 0, 0
	for _, c := range levels {
		streams, most = streams+c, max(most, c)
	}
	noticeCost(cfg, streams, runs, stderr)
	ensureOpenFiles(len(cfg.Providers)*most, stderr)
}

func (f *raceFlags) onlyNames() []string {
	if f.only == "" {
		return nil
	}
	names := strings.Split(f.only, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	return names
}

// keepOnly keeps the providers --only names, in the file's order; names it
// does not find may still be simulated providers (checkOnly decides).
func (f *raceFlags) keepOnly(cfg *config.Config) {
	if names := f.onlyNames(); names != nil {
		cfg.Providers = slices.DeleteFunc(cfg.Providers, func(p config.Provider) bool { return !slices.Contains(names, p.Name) })
	}
}

// names are the providers of cfg, skipped ones included.
func names(cfg *config.Config) []string {
	var all []string
	for _, p := range cfg.Providers {
		all = append(all, p.Name)
	}
	for _, n := range cfg.Skipped {
		all = append(all, n.Provider)
	}
	return all
}

// checkOnly fails when --only names providers that are not in the race,
// listing every such name (with the closest known one) and the names that
// are in the race. When the built-in simulated providers race, it says why,
// and names the file's providers with why each skipped one was.
func (f *raceFlags) checkOnly(s *session) error {
	cfg, known := s.cfg, s.known
	var have, bad []string
	for _, p := range cfg.Providers {
		have = append(have, p.Name)
	}
	const empty = "an empty name (two commas, or one at an end)"
	for _, name := range f.onlyNames() {
		if slices.Contains(have, name) {
			continue
		}
		if name == "" { // said once however many
			if !slices.Contains(bad, empty) {
				bad = append(bad, empty)
			}
			continue
		}
		if i := slices.IndexFunc(cfg.Skipped, func(n config.Notice) bool { return n.Provider == name }); i >= 0 {
			bad = append(bad, fmt.Sprintf("%s is skipped: %s", name, cfg.Skipped[i].Reason))
			continue
		}
		miss := fmt.Sprintf("no provider named %q", name)
		if c := config.Closest(name, known); c != "" {
			miss += fmt.Sprintf(" (did you mean %s?)", c)
		}
		bad = append(bad, miss)
	}
	if len(bad) == 0 {
		return nil
	}
	msg := "--only: " + strings.Join(bad, "; ")
	if len(s.sims) > 0 {
		msg += ": " + s.simulatedRace(f.checking)
	} else {
		msg += ": the providers are " + strings.Join(s.fileProviders(), ", ")
	}
	return usageError{errors.New(msg)}
}

// fileProviders are the names of the file's providers, each skipped one
// with why: "groq (skipped: GROQ_API_KEY is not set)".
func (s *session) fileProviders() []string {
	var theirs []string
	for _, name := range s.known {
		if slices.Contains(s.sims, name) {
			continue
		}
		if i := slices.IndexFunc(s.cfg.Skipped, func(n config.Notice) bool { return n.Provider == name }); i >= 0 {
			name += " (skipped: " + s.cfg.Skipped[i].Reason + ")"
		}
		theirs = append(theirs, name)
	}
	return theirs
}

// simulatedRace says why the built-in simulated providers race (or, for
// check, are checked) and names them, with the file's providers (the
// skipped ones with their reasons).
func (s *session) simulatedRace(checking bool) string {
	race := "the built-in SIMULATED providers race: " + strings.Join(s.sims, ", ")
	if checking {
		race = "the built-in SIMULATED providers are checked: " + strings.Join(s.sims, ", ")
	}
	if s.file == "" {
		return s.why + ", so " + race
	}
	theirs := s.fileProviders()
	if len(theirs) == 0 {
		return s.file + " has no providers, so " + race
	}
	return s.file + "'s providers are " + strings.Join(theirs, ", ") + "; with none of them " + race
}

// exitCode maps a command's error to the process exit status, printing it.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "tpsrace:", err)
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return 1
}
