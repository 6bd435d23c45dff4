package ui

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// vocabularyWords are the words of vocabulary's labels: what a label on
// screen may be made of.
func vocabularyWords() map[string]bool {
	words := map[string]bool{}
	for _, t := range vocabulary() {
		for _, w := range strings.Fields(t.Label) {
			words[w] = true
		}
	}
	return words
}

// labelsOn are the labels a screen draws in its fixed places: the
// lanes' figures (their first line), the leaderboard's column names, the
// chart's title line and the words of the lanes' bottom borders (the
// badges), each split into words; numbers are figures, not labels, and
// names are the providers'.
func labelsOn(screen string, names []string) []string {
	var labels []string
	add := func(text string) {
		for _, w := range strings.Fields(text) {
			if slices.Contains(names, w) { // the providers' own names, as the config has them
				continue
			}
			if !regexp.MustCompile(`[0-9]`).MatchString(w) && strings.Trim(w, "─│┤┃╰╯… ") != "" { // "…": words gave way
				labels = append(labels, w)
			}
		}
	}
	lines := strings.Split(ansi.Strip(screen), "\n")
	for i, line := range lines {
		// A lane's first line under its title is its figures (a failed
		// lane's is the provider's error, in its own words: not ours).
		if i > 0 && strings.Contains(lines[i-1], "╭─") {
			for _, cell := range strings.Split(line, "│") {
				if t := strings.TrimSpace(cell); t != "" && !strings.HasPrefix(t, "✗") {
					add(t)
				}
			}
		}
		switch {
		case strings.HasPrefix(line, "   #  provider"):
			table, chart, _ := strings.Cut(line, "┤")
			add(table)
			add(chart)
			if title, ok := strings.CutPrefix(strings.TrimSpace(line[strings.LastIndex(line, "  ")+2:]), ""); ok {
				add(title)
			}
		case strings.HasPrefix(line, "╰─"):
			for _, border := range strings.Split(line, "╯") {
				add(strings.Trim(border, "╰─ "))
			}
		}
	}
	return labels
}

// Every label the dashboard draws in its fixed places, in every golden
// state and every workload's screens at every golden size, is made of the
// words the help page defines (vocabulary): a new code on screen fails
// here until ? explains it.
func TestEveryLabelIsDefined(t *testing.T) {
	words := vocabularyWords()
	states := slices.Clone(goldenStates)
	for _, w := range workloadScreens {
		states = append(states, struct {
			name  string
			build func(w, h int) Model
		}{w.name, w.build})
	}
	for _, s := range states {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", s.name, size[0], size[1]), func(t *testing.T) {
				m := s.build(size[0], size[1])
				var names []string
				for _, p := range m.c.config.Providers {
					names = append(names, p.Name)
				}
				screen := m.View()
				for _, w := range labelsOn(screen, names) {
					if !words[w] {
						t.Errorf("%q is on screen but not in the help page's vocabulary:\n%s", w, ansi.Strip(screen))
					}
				}
			})
		}
	}
}

// vocabularyTable is vocabulary as docs/DASHBOARD.md's Markdown table.
func vocabularyTable() string {
	var sb strings.Builder
	sb.WriteString("| label | means |\n|---|---|\n")
	for _, t := range vocabulary() {
		sb.WriteString("| `" + t.Label + "` | " + strings.ReplaceAll(t.Means, "|", "\\|") + " |\n")
	}
	return sb.String()
}

// docs/DASHBOARD.md's vocabulary is the help page's, word for word
// (go test ./ui -update rewrites it between its markers).
func TestDashboardDocHasTheVocabulary(t *testing.T) {
	const path, begin, end = "../docs/DASHBOARD.md", "<!-- vocabulary: begin -->\n", "<!-- vocabulary: end -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok1 := strings.Cut(string(doc), begin)
	_, tail, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the vocabulary markers", path)
	}
	want := head + begin + vocabularyTable() + end + tail
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(doc) != want {
		t.Errorf("%s's vocabulary differs from the help page's: go test ./ui -update -run TestDashboardDocHasTheVocabulary", path)
	}
}
