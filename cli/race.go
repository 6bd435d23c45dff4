// Package cli holds tpsrace's commands. Each command is an options struct
// (its flags, documented in one place) and a run method; main only hands off.
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

	"tpsrace/config"
	"tpsrace/sim"
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
}

func (f *raceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.configPath, "config", "", "providers file (default ./providers.yaml when present, else the built-in simulated providers)")
	fs.StringVar(&f.prompt, "prompt", "", "prompt to race (overrides the file's prompt)")
	fs.IntVar(&f.maxTokens, "max-tokens", 0, "max_tokens for every provider (overrides the file's)")
	fs.IntVar(&f.concurrency, "concurrency", 1, "simultaneous streams (users) per provider")
	fs.StringVar(&f.only, "only", "", "comma-separated provider names to race (default: all)")
	fs.IntVar(&f.retries, "retries", 0, "retry a request that fails before its first byte up to N times (recorded as retries)")
	fs.BoolVar(&f.warm, "warm", false, "open every stream's connection (TLS included) before each release, so TTFT measures the model, not the handshake")
	fs.DurationVar(&f.timeouts.Connect, "connect-timeout", 0, "limit until response headers (default from file, else 10s)")
	fs.DurationVar(&f.timeouts.FirstToken, "first-token-timeout", 0, "limit until the first token (default from file, else 60s)")
	fs.DurationVar(&f.timeouts.Stall, "stall-timeout", 0, "longest silence between bytes (default from file, else 20s)")
	fs.DurationVar(&f.timeouts.Total, "total-timeout", 0, "limit for a whole stream (default from file, else 5m)")
}

// session is a loaded race: its config and whatever must be stopped after it.
type session struct {
	cfg   *config.Config
	local *local
	close func()
}

// load resolves the flags into a race: the providers file (explicit, else
// ./providers.yaml when present), minus skipped providers, or the built-in
// simulated providers when none remain. Notices and warnings go to stderr.
func (f *raceFlags) load(ctx context.Context, stderr io.Writer) (*session, error) {
	if f.concurrency < 1 {
		return nil, usageError{fmt.Errorf("--concurrency must be at least 1, got %d", f.concurrency)}
	}
	if f.maxTokens < 0 {
		return nil, usageError{fmt.Errorf("--max-tokens must be positive, got %d", f.maxTokens)}
	}
	if f.retries < 0 {
		return nil, usageError{fmt.Errorf("--retries must not be negative, got %d", f.retries)}
	}
	path := f.configPath
	if path == "" {
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
	f.keepOnly(cfg)
	skipLocal(ctx, cfg, stderr)
	s := &session{cfg: cfg, local: &local{info: map[string]string{}}}
	s.close = s.local.stop
	if len(cfg.Providers) == 0 {
		srv, err := sim.Start("127.0.0.1:0", sim.Options{})
		if err != nil {
			return nil, fmt.Errorf("starting the built-in simulator: %w", err)
		}
		s.close = func() { srv.Close(); s.local.stop() }
		cfg.Providers, cfg.Simulated = sim.DemoProviders(srv.URL()), true
		f.keepOnly(cfg)
		if path == "" {
			fmt.Fprintln(stderr, "no providers.yaml: racing the built-in SIMULATED providers (see README: providers.yaml)")
		} else {
			fmt.Fprintf(stderr, "%s: no provider left to race (see above): racing the built-in SIMULATED providers\n", path)
		}
	}
	if err := f.checkOnly(cfg); err != nil {
		s.close()
		return nil, err
	}
	for i := range cfg.Providers {
		p := &cfg.Providers[i]
		p.Timeout = f.timeouts.Or(p.Timeout).Or(config.DefaultTimeouts)
	}
	return s, nil
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

// checkOnly fails when --only names a provider that is not in the race.
func (f *raceFlags) checkOnly(cfg *config.Config) error {
	var have []string
	for _, p := range cfg.Providers {
		have = append(have, p.Name)
	}
	for _, name := range f.onlyNames() {
		if slices.Contains(have, name) {
			continue
		}
		for _, n := range cfg.Skipped {
			if n.Provider == name {
				return usageError{fmt.Errorf("--only: %s is skipped: %s", name, n.Reason)}
			}
		}
		return usageError{fmt.Errorf("--only: no provider named %q (racing: %s)", name, strings.Join(have, ", "))}
	}
	return nil
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
