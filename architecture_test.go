package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The folder table of docs/ARCHITECTURE.md names every package, and
// every package says what it is for in its doc comment, so neither can
// drift from the code unseen.
func TestEveryPackageIsDescribed(t *testing.T) {
	raw, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(raw), "| folder | what it holds |")
	if !ok {
		t.Fatal(`docs/ARCHITECTURE.md has no "| folder | what it holds |" table`)
	}
	table, _, _ = strings.Cut(table, "\n\n")
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Doc}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		path, doc, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if doc == "" {
			t.Errorf("package %s has no doc comment saying what it is for", path)
		}
		folder := "`main.go`"
		if dir, sub := strings.CutPrefix(path, "tpsrace/"); sub {
			folder = "`" + dir + "/`"
		}
		if !strings.Contains(table, folder) {
			t.Errorf("docs/ARCHITECTURE.md's folder table does not name %s (package %s)", folder, path)
		}
	}
}

// Tests ask package testenv for their real parts (tools, the shared
// fixtures), so that one rule decides between skipping and failing under
// CI: no test looks a tool up, reads $CI, opens ../shared or skips itself.
func TestRealPartsGoThroughTestenv(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (path == "testenv" || strings.HasPrefix(d.Name(), ".")) && path != ".":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go") || path == "architecture_test.go":
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, own := range []string{"exec.LookPath(", `Getenv("CI")`, `"../../shared`, `"../shared`} {
			if strings.Contains(string(raw), own) {
				t.Errorf("%s uses %s: ask testenv.Require for the part instead", path, own)
			}
		}
		for _, skip := range []string{"t.Skip(", "t.Skipf(", "t.SkipNow(", "b.Skip("} {
			if strings.Contains(string(raw), skip) {
				t.Errorf("%s calls %s: skip through testenv (Missing, Unavailable, OtherOS, Short), so that CI fails where it must", path, skip)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
