package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The docs' commands run: every ```sh block of README.md and docs/*.md is
// run by this test unless the line before its fence says why not
// (<!-- not run: REASON -->), and a ```text block after
// <!-- stdout of: COMMAND --> or <!-- stderr of: COMMAND --> is output that
// COMMAND, run earlier on the same page, must print (docs/TESTING.md,
// "The docs' commands"). So an example cannot go stale unseen.
func TestDocsCommands(t *testing.T) {
	t.Parallel()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"README.md"}, pages...)
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin := tpsraceBinary(t)
	for _, page := range pages {
		doc, err := parseDoc(page)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(doc.commands) == 0 {
			continue
		}
		t.Run(filepath.Base(page), func(t *testing.T) {
			t.Parallel()
			runPage(t, bin, repo, doc)
		})
	}
}

// runPage runs a page's commands in order, in one folder of their own (so
// a file one writes is there for the next), then checks its quoted output.
func runPage(t *testing.T, bin, repo string, doc page) {
	dir := t.TempDir()
	for _, name := range []string{"testdata", "providers.yaml"} {
		if err := os.Symlink(filepath.Join(repo, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	printed := map[string][2]string{} // command → stdout, stderr
	for _, c := range doc.commands {
		stdout, stderr, code := runDocCommand(t, bin, dir, c.args)
		if code != c.exit {
			t.Errorf("%s:%d: `%s` exited %d, the doc says %d\nstderr: %s", doc.path, c.line, c.text, code, c.exit, stderr)
		}
		printed[c.text] = [2]string{stdout, stderr}
	}
	for _, o := range doc.outputs {
		out, ran := printed[o.command]
		if !ran {
			t.Errorf("%s:%d: the output quoted is of `%s`, which this page does not run", doc.path, o.line, o.command)
			continue
		}
		got := out[0]
		if o.stream == "stderr" {
			got = out[1]
		}
		for _, want := range o.lines {
			if !containsLine(got, want) {
				t.Errorf("%s:%d: `%s` printed no line like %q on %s; it printed:\n%s", doc.path, o.line, o.command, want, o.stream, got)
			}
		}
	}
}

// runDocCommand runs one command as a user without keys would: no API key
// in its environment (so the repo's providers.yaml skips every provider). A bench that gives
// no --max-tokens gets a short one, so the page's races take a second.
func runDocCommand(t *testing.T, bin, dir string, args []string) (stdout, stderr string, code int) {
	if len(args) > 0 && args[0] == "bench" && !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--max-tokens") }) {
		args = append(args, "--max-tokens", "24")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasSuffix(name, "_API_KEY") && !strings.HasPrefix(name, "TPSRACE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("tpsrace %s: still running after 45s: mark its block <!-- not run: … -->", strings.Join(args, " "))
	}
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), exit.ExitCode()
	} else if err != nil {
		t.Fatalf("tpsrace %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), 0
}

// containsLine: some line of out holds want's parts in order, where want
// writes "…" for what varies (a time, a port).
func containsLine(out, want string) bool {
	for line := range strings.Lines(out) {
		rest, ok := line, true
		for part := range strings.SplitSeq(want, "…") {
			part = strings.TrimSpace(part)
			i := strings.Index(rest, part)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(part):]
		}
		if ok {
			return true
		}
	}
	return false
}

var built struct {
	once sync.Once
	path string
	out  []byte
	err  error
}

// tpsraceBinary builds tpsrace once for the tests that run it as a user
// does, into a folder TestMain removes.
func tpsraceBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "tpsrace-docs-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "tpsrace")
		built.out, built.err = exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.path != "" {
		os.RemoveAll(filepath.Dir(built.path))
	}
	os.Exit(code)
}
