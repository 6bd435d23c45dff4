package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The import map in docs/ARCHITECTURE.md is the one allowed: a
// tpsrace package that imports a tpsrace package its line does not allow
// fails here, so layers keep pointing down.
func TestImportsFollowTheMap(t *testing.T) {
	rules := importMap(t)
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], "tpsrace/")
		allowed, ok := ruleFor(rules, pkg)
		if !ok {
			t.Errorf("package %s has no line in docs/ARCHITECTURE.md's import map", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, mine := strings.CutPrefix(imp, "tpsrace/")
			if !mine || dep == pkg {
				continue
			}
			if !matchesAny(allowed, dep) {
				t.Errorf("%s imports %s, which docs/ARCHITECTURE.md's import map does not allow (it may import: %s)", pkg, dep, strings.Join(allowed, " "))
			}
		}
	}
}

// The map fails packages above it: nothing below cli may import ui/.
func TestImportMapKeepsTheDashboardOnTop(t *testing.T) {
	rules := importMap(t)
	for _, pkg := range []string{"metrics", "benchdoc", "recording", "watch", "report", "probes"} {
		allowed, _ := ruleFor(rules, pkg)
		if matchesAny(allowed, "ui/live") || matchesAny(allowed, "ui") {
			t.Errorf("the map lets %s import from ui/", pkg)
		}
	}
}

type rule struct {
	pattern string
	allowed []string
}

// importMap reads the block after "<!-- import map" in docs/ARCHITECTURE.md: one line
// per package pattern, then the patterns it may import ("-": none).
func importMap(t *testing.T) []rule {
	t.Helper()
	f, err := os.Open("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rules []rule
	state := 0 // 0 before the marker, 1 before the block, 2 in it
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case state == 0 && strings.HasPrefix(line, "<!-- import map"):
			state = 1
		case state == 1 && line == "```":
			state = 2
		case state == 2 && line == "```":
			return rules
		case state == 2 && line != "" && !strings.HasPrefix(line, "#"):
			fields := strings.Fields(line)
			r := rule{pattern: fields[0]}
			if len(fields) > 1 && fields[1] != "-" {
				r.allowed = fields[1:]
			}
			rules = append(rules, r)
		}
	}
	t.Fatal("docs/ARCHITECTURE.md has no import map block after <!-- import map")
	return nil
}

func ruleFor(rules []rule, pkg string) ([]string, bool) {
	for _, r := range rules {
		if matches(r.pattern, pkg) {
			return r.allowed, true
		}
	}
	return nil, false
}

// matches: "x/..." is x and everything under it; anything else is itself.
func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pattern == pkg
}

func matchesAny(patterns []string, pkg string) bool {
	for _, p := range patterns {
		if matches(p, pkg) {
			return true
		}
	}
	return false
}
