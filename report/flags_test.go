package report

import (
	"slices"
	"testing"

	"tpsrace/benchdoc"
	"tpsrace/metrics"
)

// A merged race's lanes share their causes: each is said once, naming the
// lanes in rank order; a race's own flag is not said again per lane.
func TestFlagNotesSayEachCauseOnce(t *testing.T) {
	lane := func(name string, rank int, evidence map[string]string) benchdoc.Provider {
		p := benchdoc.Provider{Name: name, Rank: rank}
		p.Summary.Evidence = evidence
		for _, f := range metrics.FlagOrder {
			if _, ok := evidence[f]; ok {
				p.Summary.Flags = append(p.Summary.Flags, f)
			}
		}
		return p
	}
	skew := "1/1 runs: start skew unknown"
	b := Bench{&benchdoc.Bench{
		Providers: []benchdoc.Provider{
			lane("wafer@a", 2, map[string]string{metrics.FlagStartSkew: skew, metrics.FlagClientSaturated: "1/1 runs: late"}),
			lane("wafer@b", 1, map[string]string{metrics.FlagStartSkew: skew, metrics.FlagClientSaturated: "1/1 runs: late"}),
			lane("lpu@a", 3, map[string]string{metrics.FlagStartSkew: skew, metrics.FlagShortAnswer: "1/1 runs: 3 tokens"}),
			lane("lpu@b", 4, map[string]string{metrics.FlagStartSkew: skew, metrics.FlagShortAnswer: "1/1 runs: 5 tokens"}),
		},
		Races: []benchdoc.Race{{Run: 0, Flags: []string{metrics.FlagStartSkew}, Evidence: map[string]string{metrics.FlagStartSkew: "start skew unknown"}}},
	}}
	want := []string{
		"⚑ run 1 start_skew: start skew unknown",
		"⚑ client_saturated on wafer@b and wafer@a: 1/1 runs: late",
		"⚑ short_answer on lpu@a and lpu@b: lpu@a 1/1 runs: 3 tokens; lpu@b 1/1 runs: 5 tokens",
	}
	if got := b.flagNotes(); !slices.Equal(got, want) {
		t.Errorf("flag notes:\n%q\nwant\n%q", got, want)
	}
}
