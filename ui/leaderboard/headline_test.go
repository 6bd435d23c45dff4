package leaderboard

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

// From 100 columns the verdict keeps both names and both figures with
// real-looking provider names: the names shorten ("groq-llama-3…") before
// a figure gives way; from 120 the names are whole.
func TestVerdictKeepsNamesAndFigures(t *testing.T) {
	names := []string{"cerebras-llama-3.3-70b", "groq-llama-3.3-70b-versatile", "together-llama-3.3-70b"}
	figs := []live.Snapshot{
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

// A ⚑ the verdict does not explain gets its legend on the headline's
// spare row: the verdict names every flagged provider of its paired runs,
// but with no runner-up there are none (a lone finisher, the others
// failed, one of them flagged).
func TestFlagLegend(t *testing.T) {
	names := []string{"fast", "slow", "limited"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 1400},
		{Status: live.Failed, Settled: true},
		{Status: live.Failed, Settled: true, Flags: "rate_limited: answered 429"},
	}
	b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(100, 6)
	b, _ = b.Update(FrameMsg{Figures: figs, Ended: true})
	if !strings.Contains(b.View(), FlagLegend) {
		t.Errorf("no legend for the ⚑:\n%s", b.View())
	}
	figs[2].Flags = ""
	b, _ = b.Update(FrameMsg{Figures: figs, Ended: true})
	if strings.Contains(b.View(), "⚑") {
		t.Errorf("a legend with no ⚑ on screen:\n%s", b.View())
	}
}

// The verdict names a third provider's flag itself: its ⚑ needs no legend.
func TestVerdictNamesAThirdProvidersFlag(t *testing.T) {
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 1400},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 100},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 50, Flags: "cached_prompt: 5 of 12 prompt tokens served from the provider's cache"},
	}
	b := New([]string{"fast", "slow", "cached"}, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(100, 6)
	b, _ = b.Update(FrameMsg{Figures: figs, Ended: true})
	if v := b.View(); !strings.Contains(v, "⚑ cached had cached prompts in 1/1 runs") || strings.Contains(v, FlagLegend) {
		t.Errorf("the verdict should name cached's flag, without the legend:\n%s", v)
	}
}
