package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The README's folder table ("How it is built") names every package, and
// every package says what it is for in its doc comment, so neither can
// drift from the code unseen.
func TestEveryPackageIsDescribed(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(raw), "| folder | what it holds |")
	if !ok {
		t.Fatal(`README.md has no "| folder | what it holds |" table`)
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
			t.Errorf("README.md's folder table does not name %s (package %s)", folder, path)
		}
	}
}
