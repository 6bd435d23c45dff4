package benchdoc_test

import (
	"slices"
	"strings"
	"testing"

	"tpsrace/metrics"
)

// The referee against servers whose behaviour is known: one that reports
// cached prompt tokens is flagged cached_prompt, one that answers with
// another model's name model_substituted, and a winner whose every run
// was answered by another model is no confident winner.
func TestRefereeFlagsKnownServers(t *testing.T) {
	b := raceRuns(t, 3, []string{"cached", "swapped", "honest"}, func(int) []string {
		return []string{"sim:ttft=5ms,tps=400,tokens=30,cached=2", "sim:ttft=5ms,tps=2000,tokens=30,served=gpt-4o-mini", "sim:ttft=5ms,tps=200,tokens=30"}
	}, 0)
	byName := map[string]int{}
	for i, p := range b.Providers {
		byName[p.Name] = i
	}
	for _, r := range b.Providers[byName["cached"]].Streams {
		if !slices.Contains(r.Flags, metrics.FlagCachedPrompt) || !strings.Contains(r.Evidence[metrics.FlagCachedPrompt], "2 of ") {
			t.Errorf("cached=2: flags %v evidence %v", r.Flags, r.Evidence)
		}
	}
	for _, r := range b.Providers[byName["swapped"]].Streams {
		if !slices.Contains(r.Flags, metrics.FlagModelSubstituted) || !strings.Contains(r.Evidence[metrics.FlagModelSubstituted], `"gpt-4o-mini"`) {
			t.Errorf("served=gpt-4o-mini: flags %v evidence %v", r.Flags, r.Evidence)
		}
	}
	for _, r := range b.Providers[byName["honest"]].Streams {
		if slices.Contains(r.Flags, metrics.FlagCachedPrompt) || slices.Contains(r.Flags, metrics.FlagModelSubstituted) {
			t.Errorf("honest: flags %v", r.Flags)
		}
	}
	if s := b.Providers[byName["cached"]].Summary; !slices.Contains(s.Flags, metrics.FlagCachedPrompt) || !strings.HasPrefix(s.Evidence[metrics.FlagCachedPrompt], "3/3 runs: ") {
		t.Errorf("summary: flags %v evidence %v", s.Flags, s.Evidence)
	}
	v := b.Verdict
	if v.Winner == nil || *v.Winner != "swapped" || v.Confident || !slices.Contains(v.Doubt, metrics.FlagModelSubstituted) {
		t.Fatalf("verdict %+v: want swapped first, not confident for model_substituted", v)
	}
	if want := "not confident: model_substituted could explain the margin"; !strings.Contains(v.Text, want) {
		t.Errorf("verdict %q lacks %q", v.Text, want)
	}
	for _, want := range []string{"swapped answered by another model in 3/3 runs", "cached had cached prompts in 3/3 runs"} {
		if !strings.Contains(v.FlaggedText, want) {
			t.Errorf("flagged %q lacks %q", v.FlaggedText, want)
		}
	}
	if len(b.Races) != 3 || b.Races[0].StartSkewMS == nil || b.Races[0].GOMAXPROCS == nil {
		t.Errorf("races %+v", b.Races)
	}
}
