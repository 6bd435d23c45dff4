package benchdoc

import (
	"context"
	"slices"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/tokens"
)

// Level is one concurrency of a sweep and its races there
// ([race][provider][stream], --runs of them).
type Level struct {
	Concurrency int
	Races       [][][]probes.Result
}

// SweepInput is a concurrency sweep (bench --sweep): Input's settings
// (its Concurrency and Races are the first level's, set by BuildSweep),
// the levels asked for (Asked), those raced, and why the sweep stopped
// climbing when tpsrace saturated (metrics.SweepStopped; "" otherwise).
type SweepInput struct {
	Input
	Asked   []int
	Levels  []Level
	Stopped string
}

// Sweep is a concurrency sweep's part of the document, absent without
// one. Per level (sweep, in the order raced) each provider's point
// (metrics.SweepPoint), per provider its knee (metrics.Knee), the verdict
// sentence (metrics.Sweep.Verdict), the levels asked for and, when tpsrace
// saturated and the sweep stopped climbing, why (null otherwise).
type Sweep struct {
	Levels       []SweepLevel `json:"sweep"`
	Knees        []Knee       `json:"knee"`
	SweepVerdict string       `json:"sweep_verdict"`
	SweepAsked   []int        `json:"sweep_levels"`
	SweepStopped *string      `json:"sweep_stopped"`
}

// SweepLevel is one concurrency of the sweep, every provider at it.
type SweepLevel struct {
	Concurrency int          `json:"concurrency"`
	Providers   []SweepPoint `json:"providers"`
}

// SweepPoint is one provider at one level (metrics.SweepPoint):
// per_user_tps the median per-user output speed, aggregate_tps the median
// over the level's races of each race's aggregate, aggregate_min and
// aggregate_max its uncertainty (the races' range; with one race, scaled
// by the users' own spread); TTFT and E2E over the level's streams;
// goodput under the SLO (null without one); client_bent when the client
// may have bent the figures (client_saturated: left out of the knee).
type SweepPoint struct {
	Name         string            `json:"name"`
	OK           int               `json:"ok"`
	Failed       int               `json:"failed"`
	PerUserTPS   *float64          `json:"per_user_tps"`
	AggregateTPS *float64          `json:"aggregate_tps"`
	AggregateMin *float64          `json:"aggregate_min"`
	AggregateMax *float64          `json:"aggregate_max"`
	TTFTms       Percentiles2      `json:"ttft_ms"`
	E2Ems        Percentiles2      `json:"e2e_ms"`
	Goodput      *Goodput          `json:"goodput"`
	ClientBent   bool              `json:"client_bent"`
	Flags        []string          `json:"flags"`
	Evidence     map[string]string `json:"evidence"`
}

// Knee is a provider's knee (metrics.Knee): concurrency, the level past
// which doubling the users gains under 10% aggregate (null: none within
// the sweep); gain, that level's doubling gain, or without a knee the last
// one read (null: none could be read); low and high, the knee within the
// levels' uncertainty (high null: it may lie past the sweep).
type Knee struct {
	Name        string   `json:"name"`
	Concurrency *int     `json:"concurrency"`
	Gain        *float64 `json:"gain"`
	Low         *int     `json:"low"`
	High        *int     `json:"high"`
}

// BuildSweep is the document of a sweep: its body (providers, races,
// verdict) is the first level's, as a bench at that concurrency would
// read, and Sweep holds every level.
func BuildSweep(in SweepInput) *Bench {
	first := in.Input
	if len(in.Levels) > 0 {
		first.Concurrency, first.Races = in.Levels[0].Concurrency, in.Levels[0].Races
	}
	b := Build(first)
	b.Sweep = sweepJSON(in.Config, CurvesOf(in.Config, in.Levels, in.Stopped), in.Asked)
	return b
}

// CurvesOf is a sweep's figures: each provider's curve over the levels,
// each level refereed over its own races (metrics.RefereeOf).
func CurvesOf(cfg *config.Config, levels []Level, stopped string) metrics.Sweep {
	s := metrics.Sweep{Stopped: stopped}
	promptTokens := tokens.Count(cfg.Prompt)
	points := make([][]metrics.SweepPoint, len(cfg.Providers))
	for _, level := range levels {
		s.Levels = append(s.Levels, level.Concurrency)
		ref := metrics.RefereeOf(cfg.Providers, cfg.Workload, level.Races)
		for p, pr := range cfg.Providers {
			var races [][]metrics.Stream
			flags := metrics.Flags{}
			for run, race := range level.Races {
				var streams []metrics.Stream
				if p < len(race) {
					for i := range race[p] {
						streams = append(streams, metrics.StreamOf(&race[p][i], promptTokens, 0))
					}
				}
				races = append(races, streams)
				for name, ev := range ref.RunFlags(run, p) {
					if _, seen := flags[name]; !seen {
						flags[name] = ev
					}
				}
			}
			points[p] = append(points[p], metrics.SweepPointOf(level.Concurrency, races, pr.SLO, flags))
		}
	}
	for p, pr := range cfg.Providers {
		s.Curves = append(s.Curves, metrics.CurveOf(pr.Name, points[p]))
	}
	return s
}

func sweepJSON(cfg *config.Config, s metrics.Sweep, asked []int) *Sweep {
	out := &Sweep{SweepVerdict: s.Verdict(), SweepAsked: asked, SweepStopped: nonEmpty(s.Stopped), Levels: []SweepLevel{}, Knees: []Knee{}}
	for l, c := range s.Levels {
		level := SweepLevel{Concurrency: c}
		for p, curve := range s.Curves {
			level.Providers = append(level.Providers, pointJSON(curve.Name, curve.Points[l], cfg.Providers[p].SLO))
		}
		out.Levels = append(out.Levels, level)
	}
	for _, curve := range s.Curves {
		out.Knees = append(out.Knees, kneeJSON(curve.Name, curve.Knee))
	}
	return out
}

func pointJSON(name string, p metrics.SweepPoint, slo config.SLO) SweepPoint {
	j := SweepPoint{Name: name, OK: p.Summary.Completed, Failed: p.Summary.Failed, TTFTms: durations(p.Summary.TTFT), E2Ems: durations(p.Summary.E2E),
		Goodput: goodput(slo, p.Summary), ClientBent: p.ClientBent}
	if u, ok := p.PerUser(); ok {
		j.PerUserTPS = ptr(tps(u))
	}
	if a := p.Aggregate; a.Runs > 0 {
		j.AggregateTPS, j.AggregateMin, j.AggregateMax = ptr(tps(a.Median)), ptr(tps(a.Min)), ptr(tps(a.Max))
	}
	j.Flags, j.Evidence = flagsJSON(p.Flags)
	return j
}

func kneeJSON(name string, k metrics.Knee) Knee {
	j := Knee{Name: name}
	if k.Found {
		j.Concurrency = ptr(k.At)
	}
	if k.HasGain {
		j.Gain = ptr(round(k.Gain, 1000))
	}
	if k.Low > 0 {
		j.Low = ptr(k.Low)
	}
	if k.High > 0 {
		j.High = ptr(k.High)
	}
	return j
}

// Climb races a sweep, the one loop bench and watch share: each of
// levels in turn, race at that concurrency with every connection warmed
// before each race (a new level's set-up is not measured), raceLevel
// running the level's races. It stops climbing after a level at which
// tpsrace itself was saturated (Stop: why, in stopped), or when ctx ends.
func Climb(ctx context.Context, race probes.Race, levels []int, raceLevel func(probes.Race) [][][]probes.Result) (raced []Level, stopped string) {
	race.Warm = true
	for _, c := range levels {
		if ctx.Err() != nil {
			break
		}
		race.Concurrency = c
		raced = append(raced, Level{Concurrency: c, Races: raceLevel(race)})
		if stopped = Stop(raced, levels); stopped != "" {
			break
		}
	}
	return raced, stopped
}

// Stop says why a sweep stopped climbing after the last of levels: tpsrace
// itself was saturated at it (metrics.ClientSaturatedIn) with levels of
// asked still to race (metrics.SweepStopped); "" when it was not, or when
// nothing was left. A live sweep asks after each level; a replay asks
// again of the recording's levels, and reads the same.
func Stop(levels []Level, asked []int) string {
	if len(levels) == 0 {
		return ""
	}
	last := levels[len(levels)-1]
	why := metrics.ClientSaturatedIn(last.Races)
	i := slices.Index(asked, last.Concurrency)
	if why == "" || i < 0 || i+1 == len(asked) {
		return ""
	}
	return metrics.SweepStopped(last.Concurrency, why, asked[i+1:])
}
