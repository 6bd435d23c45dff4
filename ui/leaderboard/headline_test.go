package leaderboard

import (
	"strings"
	"testing"

	"tpsrace/ui/live"
)

// From 100 columns the verdict keeps both names and both figures with
// real-looking provider names: the names shorten ("groq-llama-3…") before
// a figure gives way; from 120 the names are whole.
func TestVerdictKeepsNamesAndFigures(t *testing.T) {
	names := []string{"cerebras-llama-3.3-70b", "groq-llama-3.3-70b-versatile", "together-llama-3.3-70b"}
	figs := []live.Figures{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 900},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 400},
		{Status: live.Failed, Settled: true},
	}
	for width := 60; width <= 240; width++ {
		line := VerdictLine(names, figs, width)
		if !strings.HasSuffix(line, "(900 vs 400 tok/s) · 1 failed") && width >= 100 || !strings.Contains(line, "(900 vs 400 tok/s)") && width >= 60 {
			t.Errorf("at %d columns: %q", width, line)
		}
		if !strings.HasPrefix(line, "▶ cerebra") || !strings.Contains(line, " faster than groq-l") {
			t.Errorf("at %d columns the names are gone: %q", width, line)
		}
		if width >= 120 && line != "▶ cerebras-llama-3.3-70b is 2.2× faster than groq-llama-3.3-70b-versatile (900 vs 400 tok/s) · 1 failed" {
			t.Errorf("at %d columns: %q", width, line)
		}
	}
}
