package report

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"tpsrace/metrics"
	"tpsrace/probes"
)

// Group is one provider's streams in one setup over some slice of the
// records: all of them (Probe and Day empty), or one probe on one UTC day.
type Group struct {
	Setup           Setup
	Provider, Model string
	Probe           string // "" in a bench file and in the per-provider groups
	Day             string // YYYY-MM-DD (UTC) of the races; "" in the per-provider groups
	Races           int    // races (history lines, bench runs) the provider took part in
	OK, Failed      int    // completed and failed streams; interrupted ones are left out
	TTFTms          Stats
	OutputTPS       Stats
	E2Ems           Stats
	Failures        map[string]int // failed streams by kind (probes.Kinds)
	Errors          errorTally     // failed streams by error message, alike ones together
	Simulated       bool           // some of its races raced the built-in simulated providers
	Thinking        GroupThinking  // reasoning: the thinking and answer phases
	// Figures are its figures over its races (metrics.WorkloadRunsOf of
	// the streams, what bench computes): the workload's columns read them,
	// and TTFTms, OutputTPS and E2Ems are its All.
	Figures metrics.WorkloadRuns
}

// Stats of one figure over a group's completed streams; nil where no
// stream defined it. Best and worst are the extremes, in the direction
// that is better for the figure (the lowest TTFT, the highest speed).
type Stats struct {
	P50, P95, Best, Worst *float64
}

// Overview is what `tpsrace report` shows of a set of records.
type Overview struct {
	Setups      []SetupRaces // in the order of the groups
	Providers   []Group      // one per setup, provider and model, across probes and days
	ByProbeDay  []Group      // one per setup, provider, model, probe and day
	Interrupted int          // streams left out: tpsrace was stopped while they ran
	Simulated   bool         // some record raced simulated providers
}

// Summarise groups every stream of records by setup, provider and model,
// and by setup, provider, model, probe and day. Each group's figures are
// metrics.WorkloadRunsOf of its streams (benchdoc.Stream.MetricStream):
// which streams count for which figure is metrics' rule, as in bench.
func Summarise(records []Record) Overview {
	var s Overview
	all, detail := map[groupKey]*groupAcc{}, map[groupKey]*groupAcc{}
	setups := map[Setup]*SetupRaces{}
	for ri, rec := range records {
		s.Simulated = s.Simulated || rec.Simulated
		day := rec.StartedAt.UTC().Format("2006-01-02")
		setup := setupOf(rec)
		sr := setups[setup]
		if sr == nil {
			sr = &SetupRaces{Setup: setup, workload: rec.WorkloadOf()}
			setups[setup] = sr
		}
		sr.Records++
		sr.Races += rec.Runs
		sr.slo = sr.slo || rec.UnderSLO()
		for _, p := range rec.Providers {
			for _, r := range p.Streams {
				if r.Interrupted {
					s.Interrupted++
					continue
				}
				race := raceKey{ri, r.Race, max(rec.RacesPerRun, 1)}
				accumulate(all, groupKey{setup, p.Name, p.Model, "", ""}, race, r, rec.Simulated)
				accumulate(detail, groupKey{setup, p.Name, p.Model, rec.Probe, day}, race, r, rec.Simulated)
			}
		}
	}
	s.Providers, s.ByProbeDay = finish(all, setups), finish(detail, setups)
	for _, sr := range setups {
		sr.Figures = metrics.FiguresOf(sr.workload, sr.slo, sr.Concurrency)
		s.Setups = append(s.Setups, *sr)
	}
	slices.SortFunc(s.Setups, func(x, y SetupRaces) int { return x.Setup.compare(y.Setup) })
	return s
}

type groupKey struct {
	setup                       Setup
	provider, model, probe, day string
}

// raceKey is one race of one record: its run index, and the races a
// workload's run of that record makes.
type raceKey struct{ record, run, perRun int }

type groupAcc struct {
	g     Group
	races map[raceKey][]metrics.Stream
}

func accumulate(groups map[groupKey]*groupAcc, k groupKey, race raceKey, r Stream, simulated bool) {
	a := groups[k]
	if a == nil {
		a = &groupAcc{g: Group{Setup: k.setup, Provider: k.provider, Model: k.model, Probe: k.probe, Day: k.day, Failures: map[string]int{}},
			races: map[raceKey][]metrics.Stream{}}
		groups[k] = a
	}
	a.races[race] = append(a.races[race], r.MetricStream())
	a.g.Simulated = a.g.Simulated || simulated
	if !r.OK {
		kind := probes.KindUnknown
		if r.ErrorKind != nil {
			kind = *r.ErrorKind
		}
		a.g.Failures[kind]++
		a.g.Errors.add(deref(r.Error))
	}
}

// ordered are a group's races in order, record by record, each record's
// runs whole: a race the provider was not in, or after a run cut short,
// is an empty one, so a workload's steps keep their places
// (metrics.WorkloadRunsOf).
func (a *groupAcc) ordered() [][]metrics.Stream {
	keys := slices.SortedFunc(maps.Keys(a.races), func(x, y raceKey) int { return cmp.Or(x.record-y.record, x.run-y.run) })
	var out [][]metrics.Stream
	base := 0 // where the record's races start in out
	for i, k := range keys {
		if i > 0 && k.record != keys[i-1].record {
			base = len(out)
		}
		for len(out) <= base+k.run {
			out = append(out, nil)
		}
		out[base+k.run] = a.races[k]
		for (len(out)-base)%k.perRun != 0 {
			out = append(out, nil)
		}
	}
	return out
}

// finish computes each group's figures, sorted by setup, provider, model,
// probe and day.
func finish(groups map[groupKey]*groupAcc, setups map[Setup]*SetupRaces) []Group {
	var out []Group
	for _, a := range groups {
		g := a.g
		g.Races = len(a.races)
		g.Figures = metrics.WorkloadRunsOf(setups[g.Setup].workload, a.ordered(), 0)
		all := g.Figures.All
		g.OK, g.Failed = all.Completed, all.Failed
		g.TTFTms, g.OutputTPS, g.E2Ems = durationStats(all.TTFT), speedStats(all.Speed), durationStats(all.E2E)
		g.Thinking = thinkingOf(all)
		out = append(out, g)
	}
	slices.SortFunc(out, func(x, y Group) int {
		return cmp.Or(x.Setup.compare(y.Setup), cmp.Compare(x.Provider, y.Provider), cmp.Compare(x.Model, y.Model), cmp.Compare(x.Probe, y.Probe), cmp.Compare(x.Day, y.Day))
	})
	return out
}

// durationStats and speedStats are a figure's distribution (metrics.Summary's)
// in ms and tok/s; the best is the lowest time, the highest speed.
func durationStats(d metrics.Dist[time.Duration]) Stats {
	if !d.Has() {
		return Stats{}
	}
	ms := func(v time.Duration) *float64 { return ptr(float64(v) / float64(time.Millisecond)) }
	return Stats{P50: ms(d.P50), P95: ms(d.P95), Best: ms(d.Min), Worst: ms(d.Max)}
}

func speedStats(d metrics.Dist[float64]) Stats {
	if !d.Has() {
		return Stats{}
	}
	return Stats{P50: ptr(d.P50), P95: ptr(d.P95), Best: ptr(d.Max), Worst: ptr(d.Min)}
}
