package cli

import (
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "--version", "-version"} {
		code, out, errOut := run(t, t.TempDir(), arg)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "tpsrace ") || !strings.Contains(out, "\ncommit ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want the version, commit and Go version", arg, code, out, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"tpsrace bench [flags]", "tpsrace version", "tpsrace replay FILE [flags]", "Example:", "Dashboard flags:", "-concurrency", "-only"}},
		{[]string{"-h"}, []string{"Dashboard flags:", "-prompt"}},
		{[]string{"help"}, []string{"tpsrace help [COMMAND]", "Dashboard flags:"}},
		{[]string{"help", "bench"}, []string{"Usage: tpsrace bench [flags]\n", "Example:\n  tpsrace bench ", "-format", "-runs", "-out"}},
		{[]string{"help", "sim"}, []string{"Usage: tpsrace sim [flags]\n", "-addr", "-slots"}},
		{[]string{"help", "version"}, []string{"Usage: tpsrace version\n", "tpsrace --version"}},
		{[]string{"help", "watch"}, []string{"Usage: tpsrace watch [flags]\n", "-interval", "-metrics-addr", "-probe-name", "-history", "-log-format", "-grace"}},
		{[]string{"report", "a.json", "-h"}, []string{"Usage: tpsrace report FILE… [flags]\n", "--compare A.json B.json", "-format", "-out"}},
		{[]string{"help", "check"}, []string{"Usage: tpsrace check [flags]\n", "-config", "-only"}},
		{[]string{"help", "replay"}, []string{"Usage: tpsrace replay FILE [flags]\n", "Example:\n  tpsrace replay ", "-bench", "-cast"}},
		{[]string{"help", "help"}, []string{"Usage: tpsrace help [COMMAND]\n", "Example:\n  tpsrace help bench"}},
	} {
		code, out, errOut := run(t, t.TempDir(), tc.args...)
		if code != 0 || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%v: help lacks %q:\n%s", tc.args, want, out)
			}
		}
	}
}

// Every command answers help CMD and CMD --help alike: a usage line, what it
// does, an example.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands() {
		code, viaHelp, errOut := run(t, t.TempDir(), "help", c.name)
		if code != 0 || errOut != "" || !strings.HasPrefix(viaHelp, "Usage: tpsrace "+c.name) || !strings.Contains(viaHelp, "\nExample:\n  tpsrace ") {
			t.Errorf("help %s: exit %d, stderr %q, stdout:\n%s\nwant a usage line and an example", c.name, code, errOut, viaHelp)
		}
		if c.flags == nil {
			continue
		}
		code, viaFlag, errOut := run(t, t.TempDir(), c.name, "--help")
		if code != 0 || errOut != "" || viaFlag != viaHelp {
			t.Errorf("%s --help: exit %d, stderr %q, stdout:\n%s\nwant what help %s prints", c.name, code, errOut, viaFlag, c.name)
		}
	}
}

// Refusals of the command line: what and why, the nearest valid name, the
// valid ones, exit 2, nothing on stdout.
func TestCommandLineRefusals(t *testing.T) {
	const commandList = "The commands are bench, sim, watch, report, check, replay, merge, version, help; without one tpsrace opens the dashboard (see: tpsrace help)"
	for _, tc := range []struct {
		args []string
		want string // all of stderr
	}{
		{[]string{"bnech"}, `tpsrace: unknown command "bnech"; did you mean bench? ` + commandList},
		{[]string{"replya", "x.tpsr"}, `tpsrace: unknown command "replya"; did you mean replay? ` + commandList},
		{[]string{"frobnicate"}, `tpsrace: unknown command "frobnicate". ` + commandList},
		{[]string{"--concurrency", "2", "bnech"}, `tpsrace: unknown command "bnech"; did you mean bench? ` + commandList},
		{[]string{"help", "bnech"}, `tpsrace: unknown command "bnech"; did you mean bench? ` + commandList},
		{[]string{"help", "bench", "sim"}, `tpsrace: help takes one COMMAND, got ["bench" "sim"] (see: tpsrace help help)`},
		{[]string{"version", "x"}, `tpsrace: version takes no arguments, got ["x"] (see: tpsrace help version)`},
		{[]string{"--concurency", "4"}, "tpsrace: unknown flag --concurency; did you mean --concurrency? The flags are --"},
		{[]string{"sim", "extra"}, `tpsrace: sim takes no arguments, got ["extra"] (see: tpsrace help sim)`},
		{[]string{"sim", "--addr", "256.0.0.1:1"}, "tpsrace: --addr 256.0.0.1:1: "},
		{[]string{"sim", "--bogus"}, "tpsrace: unknown flag --bogus. The flags are --accept-delay, --addr, --load-time, --slots (see: tpsrace help sim)"},
		{[]string{"bench", "--fromat", "json"}, "tpsrace: unknown flag --fromat; did you mean --format? The flags are --"},
		{[]string{"bench", "--heats", "3"}, "tpsrace: unknown flag --heats; did you mean --runs? (the dashboard's heats are bench's runs) (see: tpsrace help bench)"},
		{[]string{"--runs", "3"}, "tpsrace: unknown flag --runs; did you mean --heats? (the dashboard's heats are bench's runs) (see: tpsrace help)"},
		{[]string{"bench", "--concurrency", "many"}, `tpsrace: invalid value "many" for --concurrency: parse error (see: tpsrace help bench)`},
		{[]string{"bench", "--out"}, "tpsrace: --out needs a value (see: tpsrace help bench)"},
		{[]string{"bench", "--simulated", "--max-tokens", "0"}, "tpsrace: --max-tokens must be at least 1, got 0 (leave it out for the file's max_tokens, else "},
		{[]string{"--max-tokens", "-5"}, "tpsrace: --max-tokens must be at least 1, got -5"},
		{[]string{"bench", "--simulated", "--prompt", ""}, "tpsrace: --prompt is empty: give the text to race"},
		{[]string{"--prompt", "  "}, "tpsrace: --prompt is empty: give the text to race"},
		{[]string{"watch", "--simulated", "--prompt", ""}, "tpsrace: --prompt is empty"},
		{[]string{"report", "--out", "/nonexistent/r.md", "a.json"}, "tpsrace: --out /nonexistent/r.md: cannot write it: the folder /nonexistent does not exist (no file was read)"},
		{[]string{"watch", "--history", "/nonexistent/h.jsonl"}, "tpsrace: --history /nonexistent/h.jsonl: cannot write it: the folder /nonexistent does not exist (nothing was started)"},
		{[]string{"merge", "a.tpsr", "b.tpsr", "--out", "/nonexistent/m.tpsr"}, "tpsrace: --out /nonexistent/m.tpsr: cannot write it: the folder /nonexistent does not exist (no recording was read)"},
	} {
		code, out, errOut := run(t, t.TempDir(), tc.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr:\n%q\nwant 2 and a line starting:\n%q", tc.args, code, out, errOut, tc.want)
		}
	}
	// The list of flags is every flag, and the pointer to help has no stray space.
	_, _, errOut := run(t, t.TempDir(), "--concurency", "4")
	if !strings.Contains(errOut, "--max-tokens, ") || !strings.HasSuffix(errOut, " (see: tpsrace help)\n") {
		t.Errorf("stderr %q: want every dashboard flag and (see: tpsrace help)", errOut)
	}
}
