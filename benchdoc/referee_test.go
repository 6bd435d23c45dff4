package benchdoc_test

import (
	"runtime"
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

// A client too busy to read its streams on time is flagged
// client_saturated: with one core for Go and a goroutine spinning on it,
// a probe's read waits for the spinner's preemption (about 10ms) while
// the stream's gap is 5ms, so its events are stamped late by far more
// than a quarter of a gap. (A healthy client's absence of the flag is a
// claim about the machine: scripts/referee.sh measures it.)
func TestSaturatedClientIsFlagged(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for n := 0; ; n++ {
			if n%(1<<24) == 0 {
				select {
				case <-stop:
					return
				default:
				}
			}
		}
	}()
	b := raceRuns(t, 1, []string{"steady"}, func(int) []string { return []string{"sim:ttft=5ms,tps=200,tokens=40,chunk=1"} }, 0)
	r := b.Providers[0].Streams[0]
	if !slices.Contains(r.Flags, metrics.FlagClientSaturated) {
		t.Fatalf("a spinning client's stream: flags %v, wake p95 %v ms", r.Flags, *b.Races[0].WakeP95MS)
	}
	t.Logf("evidence: %s", r.Evidence[metrics.FlagClientSaturated])
}
