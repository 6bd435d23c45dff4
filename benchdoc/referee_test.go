package benchdoc_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"tpsrace/benchdoc"
	"tpsrace/metrics"
	"tpsrace/testenv"
)

// The referee against servers whose behaviour is known: one that reports
// cached prompt tokens is flagged cached_prompt, one that answers with
// another model's name model_substituted, and a winner whose every run
// was answered by another model is no confident winner.
//
// The flags are what the servers sent, checked directly. Who won is a
// speed on the wall clock: swapped's 30 tokens take 15 ms, which a loaded
// machine's hiccup can outlast (seen at load 8: "too close to call:
// swapped vs cached … swapped faster in 2/3 runs"), so the verdict follows
// testenv.Timed.
func TestRefereeFlagsKnownServers(t *testing.T) {
	testenv.Timed(t, func(a *testenv.Attempt) {
		b := raceRuns(t, 3, []string{"cached", "swapped", "honest"}, func(int) []string {
			return []string{"sim:ttft=5ms,tps=400,tokens=30,cached=2", "sim:ttft=5ms,tps=2000,tokens=30,served=gpt-4o-mini", "sim:ttft=5ms,tps=200,tokens=30"}
		}, 0)
		a.Load = saturation(b)
		checkFlagsOfKnownServers(t, b)
		v := b.Verdict
		if v.Winner == nil || *v.Winner != "swapped" || v.Confident || !slices.Contains(v.Doubt, metrics.FlagModelSubstituted) {
			a.Missf("verdict %+v: want swapped first, not confident for model_substituted", v)
			return
		}
		// A loaded client's own flag may join the doubt: it is true of
		// those runs (loadFlags), and said in the same clause.
		for _, flag := range v.Doubt {
			if flag != metrics.FlagModelSubstituted && !loadFlags[flag] {
				t.Errorf("doubt %v: %s could not explain swapped's margin", v.Doubt, flag)
			}
		}
		if want := "not confident: " + strings.Join(v.Doubt, ", ") + " could explain the margin"; !strings.Contains(v.Text, want) {
			a.Missf("verdict %q lacks %q", v.Text, want)
		}
	})
}

// checkFlagsOfKnownServers checks what TestRefereeFlagsKnownServers'
// servers sent, whatever the machine's load: each run's flags and
// evidence, the summary's, the verdict's words for them.
func checkFlagsOfKnownServers(t *testing.T, b *benchdoc.Bench) {
	t.Helper()
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
	for _, want := range []string{"swapped answered by another model in 3/3 runs", "cached had cached prompts in 3/3 runs"} {
		if !strings.Contains(b.Verdict.FlaggedText, want) {
			t.Errorf("flagged %q lacks %q", b.Verdict.FlaggedText, want)
		}
	}
	if len(b.Races) != 3 || b.Races[0].StartSkewMS == nil || b.Races[0].GOMAXPROCS == nil {
		t.Errorf("races %+v", b.Races)
	}
}

// loadFlags are the referee's flags that the test machine's load raises
// (a true flag of a run on a busy client): a test may see them beside the
// flags it planned, and must not depend on their absence outside
// testenv.Timed.
var loadFlags = map[string]bool{metrics.FlagClientSaturated: true, metrics.FlagStartSkew: true}

// saturation is the client's own evidence that it was loaded during b's
// races (the first stream flagged client_saturated), for
// testenv.Attempt.Load; "" for none.
func saturation(b *benchdoc.Bench) string {
	for _, p := range b.Providers {
		for _, r := range p.Streams {
			if e := r.Evidence[metrics.FlagClientSaturated]; e != "" {
				return e
			}
		}
	}
	return ""
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
