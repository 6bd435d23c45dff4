// Package testenv is the one rule for tests whose real part lives outside
// Go: a tool (tmux, asciinema, chromium, prometheus, promtool,
// systemd-analyze, llama-server, script) or the shared recorded fixtures.
// Where the part is missing, the test skips on a developer's machine, saying
// how to install it, and fails under CI, so that CI never goes green without
// having run it.
//
//	tmux := testenv.Require(t, "tmux")
//	dir := testenv.Require(t, "fixtures") // ../shared/fixtures
//
// It also holds the suite's other shared rules (docs/TESTING.md): every
// other skip (Unavailable, OtherOS, Short), the retry rule for wall-clock
// tests (Timed), and the real binary in a real terminal (Binary,
// StartTerminal).
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// LlamaServerEnv names a llama-server binary, as llamacpp reads it (a path,
// or a name looked up in PATH).
const LlamaServerEnv = "TPSRACE_LLAMA_SERVER"

// part is a real part a test can need: where to find it and how to get it.
type part struct {
	names   []string // the executables tried in PATH, in order
	install string
}

var parts = map[string]part{
	"tmux":            {[]string{"tmux"}, "apt-get install -y tmux"},
	"asciinema":       {[]string{"asciinema"}, "apt-get install -y asciinema"},
	"script":          {[]string{"script"}, "apt-get install -y bsdutils"},
	"chromium":        {[]string{"chromium", "chromium-browser"}, "apt-get install -y chromium"},
	"prometheus":      {[]string{"prometheus"}, "apt-get install -y prometheus"},
	"promtool":        {[]string{"promtool"}, "apt-get install -y prometheus"},
	"systemd-analyze": {[]string{"systemd-analyze"}, "apt-get install -y systemd"},
	"llama-server":    {[]string{"llama-server"}, "export " + LlamaServerEnv + "=$(scripts/llama-server.sh)"},
	"fixtures":        {nil, "check out the project's shared/ folder beside the repository (../shared/fixtures)"},
}

// CI reports whether the tests run under CI: $CI set to anything but "false".
func CI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false"
}

// Require returns the path of the named part (an executable, or for
// "fixtures" the shared fixtures folder), or ends the test through Missing.
// A name it does not know is a mistake in the test, and fails it.
func Require(t testing.TB, name string) string {
	t.Helper()
	p, ok := parts[name]
	if !ok {
		t.Fatalf("testenv: no real part named %q", name)
	}
	switch name {
	case "fixtures":
		if dir, ok := fixtures(); ok {
			return dir
		}
		Missing(t, name, "the shared recorded fixtures are not found")
	case "llama-server":
		if env := os.Getenv(LlamaServerEnv); env != "" {
			path, err := exec.LookPath(env)
			if err != nil {
				Missing(t, name, LlamaServerEnv+"="+env+" is not an executable file")
			}
			return path
		}
	}
	for _, exe := range p.names {
		if path, err := exec.LookPath(exe); err == nil {
			return path
		}
	}
	Missing(t, name, name+" is not in PATH")
	return ""
}

// Missing ends a test whose real part is missing, for the reason given:
// under CI it fails, elsewhere it skips; both say how to install the part.
func Missing(t testing.TB, name, reason string) {
	t.Helper()
	how := parts[name].install
	if CI() {
		t.Fatalf("CI is set and this test needs %s: %s (to install: %s)", name, reason, how)
	}
	t.Skipf("skipped, it needs %s: %s (to install: %s; under CI this test fails instead)", name, reason, how)
}

// fixtures finds ../shared/fixtures beside the module's root.
func fixtures() (string, bool) {
	root, ok := moduleRoot()
	if !ok {
		return "", false
	}
	shared := filepath.Join(root, "..", "shared", "fixtures")
	info, err := os.Stat(shared)
	return shared, err == nil && info.IsDir()
}

// moduleRoot is the folder holding go.mod, above the package directory a
// test runs in.
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
