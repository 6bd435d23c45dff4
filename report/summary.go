package report

import (
	"cmp"
	"slices"

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
	Errors          map[string]int // failed streams by error message, as received
	Simulated       bool           // some of its races raced the built-in simulated providers
	Thinking        GroupThinking  // reasoning: the thinking and answer phases
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
// and by setup, provider, model, probe and day. Percentiles are
// metrics.DistOf's.
func Summarise(records []Record) Overview {
	var s Overview
	all, detail := map[groupKey]*groupAcc{}, map[groupKey]*groupAcc{}
	setups := map[Setup]*SetupRaces{}
	for ri, rec := range records {
		s.Simulated = s.Simulated || rec.Simulated
		day := rec.StartedAt.UTC().Format("2006-01-02")
		setup := setupOf(rec)
		if setups[setup] == nil {
			setups[setup] = &SetupRaces{Setup: setup}
		}
		setups[setup].Records++
		setups[setup].Races += rec.Runs
		for _, p := range rec.Providers {
			for _, r := range p.Runs {
				if r.Interrupted {
					s.Interrupted++
					continue
				}
				race := [2]int{ri, r.Run}
				accumulate(all, groupKey{setup, p.Name, p.Model, "", ""}, race, r, rec.Simulated)
				accumulate(detail, groupKey{setup, p.Name, p.Model, rec.Probe, day}, race, r, rec.Simulated)
			}
		}
	}
	s.Providers, s.ByProbeDay = finish(all), finish(detail)
	for _, sr := range setups {
		s.Setups = append(s.Setups, *sr)
	}
	slices.SortFunc(s.Setups, func(x, y SetupRaces) int { return x.Setup.compare(y.Setup) })
	return s
}

type groupKey struct {
	setup                       Setup
	provider, model, probe, day string
}

type groupAcc struct {
	g              Group
	races          map[[2]int]bool // (record, run) pairs seen
	ttft, tps, e2e []float64
	thinking       thinkingAcc
}

func accumulate(groups map[groupKey]*groupAcc, k groupKey, race [2]int, r Run, simulated bool) {
	a := groups[k]
	if a == nil {
		a = &groupAcc{g: Group{Setup: k.setup, Provider: k.provider, Model: k.model, Probe: k.probe, Day: k.day, Failures: map[string]int{}, Errors: map[string]int{}},
			races: map[[2]int]bool{}}
		groups[k] = a
	}
	a.races[race] = true
	a.g.Simulated = a.g.Simulated || simulated
	collect(&a.ttft, r.TTFTms) // a failure later does not change when the first token came (metrics.Run)
	a.thinking.add(r)
	if !r.OK {
		a.g.Failed++
		kind := probes.KindUnknown
		if r.ErrorKind != nil {
			kind = *r.ErrorKind
		}
		a.g.Failures[kind]++
		a.g.Errors[deref(r.Error)]++
		return
	}
	a.g.OK++
	collect(&a.tps, r.OutputTPS)
	a.e2e = append(a.e2e, r.E2Ems)
}

// finish computes each group's statistics, sorted by setup, provider,
// model, probe and day.
func finish(groups map[groupKey]*groupAcc) []Group {
	var out []Group
	for _, a := range groups {
		g := a.g
		g.Races = len(a.races)
		g.TTFTms, g.OutputTPS, g.E2Ems = stats(a.ttft, false), stats(a.tps, true), stats(a.e2e, false)
		g.Thinking = a.thinking.stats()
		out = append(out, g)
	}
	slices.SortFunc(out, func(x, y Group) int {
		return cmp.Or(x.Setup.compare(y.Setup), cmp.Compare(x.Provider, y.Provider), cmp.Compare(x.Model, y.Model), cmp.Compare(x.Probe, y.Probe), cmp.Compare(x.Day, y.Day))
	})
	return out
}

// stats of v (metrics.DistOf); higherIsBetter says which extreme is the best.
func stats(v []float64, higherIsBetter bool) Stats {
	d := metrics.DistOf(v)
	if !d.Has() {
		return Stats{}
	}
	best, worst := d.Min, d.Max
	if higherIsBetter {
		best, worst = worst, best
	}
	return Stats{P50: ptr(d.P50), P95: ptr(d.P95), Best: ptr(best), Worst: ptr(worst)}
}

func collect(into *[]float64, v *float64) {
	if v != nil {
		*into = append(*into, *v)
	}
}
