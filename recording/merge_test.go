package recording_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/timesync"
	"tpsrace/workload"
)

// probeRecording is probe's recording of one race at --start-at start: its
// release came after the instant by its own clock, and its one stream
// began its request sent after that release.
func probeRecording(probe string, start time.Time, release, sent time.Duration, clock *timesync.State) recording.Named {
	h := recording.Header{Schema: recording.Schema, Prompt: "hi", MaxTokens: 20, Concurrency: 1, Probe: probe, StartAt: &start, Clock: clock,
		Providers: []recording.Provider{{Name: "alpha", Model: "m"}}}
	at := start.Add(release)
	r := probes.Result{Provider: "alpha", Model: "m", Release: at, Sent: sent,
		Events: probes.EventsOf(probes.Event{At: 50 * time.Millisecond, Content: "hi", Tokens: 1}), End: 60 * time.Millisecond}
	return recording.Named{Name: probe + ".tpsr", Recording: &recording.Recording{Header: h, Races: []recording.Race{{Release: at, Results: [][]probes.Result{{r}}}}}}
}

// A merged race has one start skew: over every host's requests, each read
// by its host's clock from the common instant, ± the clocks' errors. merge
// and replay (its header line), the bench JSON (the race's, the fleet's)
// and the start_skew flag's evidence all say that one figure, before and
// after the merged recording is saved and read back; unknown, not
// invented, when a clock is not synchronised.
func TestOneStartSkewOfAMergedRace(t *testing.T) {
	start := time.Date(2026, 12, 4, 15, 0, 0, 0, time.UTC)
	clock := func(ms float64) *timesync.State {
		return &timesync.State{Synchronised: true, EstError: time.Duration(ms * float64(time.Millisecond))}
	}
	us, ms := time.Microsecond, time.Millisecond
	recs := []recording.Named{
		probeRecording("fra", start, 200*us, 300*us, clock(0.4)),
		probeRecording("iad", start, 7*ms, 300*us, clock(0.5)),
		probeRecording("sin", start, ms, 0, clock(0.3)),
	}
	merged, err := recording.Merge(recs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "race.tpsr")
	if err := merged.Save(path); err != nil {
		t.Fatal(err)
	}
	reread, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const want = "start skew 6.8ms ± 0.9ms across 3 probes" // iad 7.3ms − fra 0.5ms, ± iad's 0.5 + fra's 0.4
	for name, rec := range map[string]*recording.Recording{"merged": merged, "read back": reread} {
		if got := rec.StartSkew(); got != want {
			t.Errorf("%s: header %q, want %q", name, got, want)
		}
		b := benchdoc.Build(rec.Report())
		if f := b.Fleet; f == nil || f.StartSkewMS == nil || *f.StartSkewMS != 6.8 || *f.StartSkewBoundMS != 0.9 {
			t.Errorf("%s: fleet %+v, want 6.8 ± 0.9 ms", name, f)
		}
		race := b.Races[0]
		if race.StartSkewMS == nil || *race.StartSkewMS != 6.8 {
			t.Errorf("%s: the race's start_skew_ms %v, want the fleet's 6.8", name, race.StartSkewMS)
		}
		if ev := race.Evidence[metrics.FlagStartSkew]; ev != want+", over 5ms" {
			t.Errorf("%s: start_skew evidence %q, want the header's figure %q", name, ev, want)
		}
		if ev := b.Providers[0].Summary.Evidence[metrics.FlagStartSkew]; !strings.Contains(ev, want) {
			t.Errorf("%s: a lane's start_skew evidence %q, want the header's figure", name, ev)
		}
	}

	recs[2] = probeRecording("sin", start, ms, 0, &timesync.State{Why: "STA_UNSYNC"})
	if merged, err = recording.Merge(recs); err != nil {
		t.Fatal(err)
	}
	const unknown = "start skew unknown across 3 probes (the clock of sin is not synchronised)"
	if got := merged.StartSkew(); got != unknown {
		t.Errorf("header %q, want %q", got, unknown)
	}
	b := benchdoc.Build(merged.Report())
	if b.Fleet.StartSkewMS != nil || b.Races[0].StartSkewMS != nil {
		t.Errorf("an unknown skew in the JSON: fleet %v, race %v; want null", b.Fleet.StartSkewMS, b.Races[0].StartSkewMS)
	}
	if ev := b.Races[0].Evidence[metrics.FlagStartSkew]; !strings.HasPrefix(ev, unknown+": ") {
		t.Errorf("start_skew evidence %q, want it to say %q", ev, unknown)
	}
	if got := recs[0].StartSkew(); got != "" {
		t.Errorf("a recording that is not merged: %q", got)
	}
}

// Every reading of a merged race keeps its workload: as merged (replay
// --bench), by provider (--by provider) and per probe (report). A copy of
// the config that kept only the prompt and max_tokens read a JSON race as
// chat in the last two, with chat's figures.
func TestEveryReadingOfAMergedRaceKeepsItsWorkload(t *testing.T) {
	start := time.Date(2026, 12, 4, 15, 0, 0, 0, time.UTC)
	json, _ := workload.Named(workload.JSON)
	var recs []recording.Named
	for _, probe := range []string{"fra", "iad"} {
		r := probeRecording(probe, start, 0, 0, nil)
		r.Recording.Header.Workload = &json
		recs = append(recs, r)
	}
	merged, err := recording.Merge(recs)
	if err != nil {
		t.Fatal(err)
	}
	perProbe, names := merged.PerProbe()
	readings := map[string]benchdoc.Input{"merged": merged.Report(), "by provider": merged.ByProvider()}
	for i, in := range perProbe {
		readings["probe "+names[i]] = in
	}
	for name, in := range readings {
		if b := benchdoc.Build(in); b.Workload != workload.JSON {
			t.Errorf("%s: built as workload %q, want %q", name, b.Workload, workload.JSON)
		}
	}
}
