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
		{[]string{"--help"}, []string{"tpsrace bench [flags]", "tpsrace version", "Dashboard flags:", "-concurrency", "-only"}},
		{[]string{"-h"}, []string{"Dashboard flags:", "-prompt"}},
		{[]string{"help"}, []string{"tpsrace help [COMMAND]", "Dashboard flags:"}},
		{[]string{"help", "bench"}, []string{"tpsrace bench [flags]:", "-format", "-runs", "-out"}},
		{[]string{"bench", "-h"}, []string{"tpsrace bench [flags]:", "-format"}},
		{[]string{"help", "sim"}, []string{"tpsrace sim [flags]:", "-addr", "-slots"}},
		{[]string{"help", "version"}, []string{"tpsrace version (or --version)"}},
		{[]string{"help", "watch"}, []string{"tpsrace watch [flags]:", "-interval", "-metrics-addr", "-probe-name", "-history", "-log-format", "-grace"}},
		{[]string{"watch", "-h"}, []string{"tpsrace watch [flags]:"}},
		{[]string{"help", "report"}, []string{"tpsrace report FILE…", "--compare A.json B.json", "-format", "-out"}},
		{[]string{"report", "a.json", "-h"}, []string{"tpsrace report FILE…"}},
		{[]string{"help", "check"}, []string{"tpsrace check [flags]:", "-config", "-only"}},
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
	if code, out, errOut := run(t, t.TempDir(), "bench", "--bogus"); code != 2 || out != "" || !strings.Contains(errOut, "tpsrace help bench") {
		t.Errorf("bad flag: exit %d, stdout %q, stderr %q: want 2, a pointer to the help and no help dump", code, out, errOut)
	}
}

// A mistyped --only says which names exist and the nearest, and nothing
// else; when the simulated providers race, it says so, why, and their names.
func TestOnlySuggestsTheClosestName(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "providers.yaml", "providers:\n  - name: groq\n    base_url: https://api.groq.com/openai/v1\n    api_key: ${TPSRACE_TEST_UNSET_KEY}\n    model: m\n"+
		"  - name: cerebras\n    base_url: https://api.cerebras.ai/v1\n    api_key: ${TPSRACE_TEST_UNSET_KEY}\n    model: m\n")
	code, out, errOut := run(t, dir, "bench", "--only", "grok")
	want := `tpsrace: --only: no provider named "grok": providers.yaml's providers are groq (skipped: TPSRACE_TEST_UNSET_KEY is not set), ` +
		`cerebras (skipped: TPSRACE_TEST_UNSET_KEY is not set); with none of them the built-in SIMULATED providers race: sim-wafer, sim-lpu, sim-gpu, sim-laptop; did you mean groq?` + "\n"
	if code != 2 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%q\nwant 2 and only:\n%q", code, out, errOut, want)
	}
	code, _, errOut = run(t, t.TempDir(), "bench", "--only", "grok")
	want = `tpsrace: --only: no provider named "grok": no providers.yaml here, so the built-in SIMULATED providers race: sim-wafer, sim-lpu, sim-gpu, sim-laptop` + "\n"
	if code != 2 || errOut != want {
		t.Errorf("no providers.yaml: exit %d, stderr:\n%q\nwant 2 and only:\n%q", code, errOut, want)
	}
	code, _, errOut = run(t, t.TempDir(), "bench", "--only", "sim-wafr")
	if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "did you mean sim-wafer?") {
		t.Errorf("exit %d, stderr %q: want 2, the suggestion and no other line", code, errOut)
	}
}
