package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	notInSlug = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// Every relative link of README.md and docs/*.md leads to a file that
// exists and, with a #fragment, to a heading of that page (GitHub's
// anchors); README links every page of docs/.
func TestDocsLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if !strings.Contains(string(readme), "]("+p+")") {
			t.Errorf("README.md does not link %s", p)
		}
	}
	for _, page := range append([]string{"README.md"}, pages...) {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(raw), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: %v", page, target, err)
				continue
			}
			if anchor != "" && !hasAnchor(t, path, anchor) {
				t.Errorf("%s: link %s: %s has no heading #%s", page, target, path, anchor)
			}
		}
	}
}

// hasAnchor: a heading of the page slugs to anchor as GitHub slugs it
// (lower case, punctuation dropped, spaces to dashes).
func hasAnchor(t *testing.T, path, anchor string) bool {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range mdHeading.FindAllStringSubmatch(string(raw), -1) {
		slug := strings.ReplaceAll(notInSlug.ReplaceAllString(strings.ToLower(strings.TrimSpace(h[1])), ""), " ", "-")
		if slug == anchor {
			return true
		}
	}
	return false
}

// .ci/run runs exactly the test command the README gives.
func TestCIRunsTheReadmeTestCommand(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	var command string
	for line := range strings.Lines(string(readme)) {
		if strings.HasPrefix(line, "go vet ") {
			command = strings.TrimSpace(strings.SplitN(line, "#", 2)[0])
			break
		}
	}
	if command == "" {
		t.Fatal("README.md gives no test command (a line starting go vet)")
	}
	for line := range strings.Lines(string(ci)) {
		if strings.TrimSpace(line) == command {
			return
		}
	}
	t.Errorf(".ci/run does not run the README's test command %q", command)
}
