package metrics

import (
	"slices"
	"strconv"
	"time"

	"tpsrace/format"
	"tpsrace/workload"
)

// Figure describes one figure of a workload, once, for every view: what it
// is called, where the bench JSON keeps it, its Prometheus gauge, how it
// reads, which way is better, and how it is computed from a provider's
// races (Of, over WorkloadRunsOf's aggregation). The dashboard's
// leaderboard and lanes, bench's table and Markdown, `report`, watch and
// docs/WORKLOADS.md loop over a workload's figures (FiguresOf); none of
// them switches on the workload.
type Figure struct {
	Header string // its name in every view: a column's header, a lane's label
	Name   string // what it is, in words (docs/WORKLOADS.md)
	// Key is where a provider's summary in the bench JSON keeps it
	// ("tool_call.complete_ms.p50"); Gauge its watch gauge ("" for none).
	Key, Gauge string
	Unit       Unit
	Better     Better
	// Decides: the workload's verdict compares this figure (Summary.Metric).
	Decides bool
	// Detail: a figure a narrow view drops first.
	Detail bool
	Help   string // its definition, one or two sentences
	// Of computes it from a provider's races of the workload.
	Of func(WorkloadRuns) Reading
}

// Unit is what a figure counts, and so how it reads.
type Unit int

// Units.
const (
	Seconds         Unit = iota // "850ms", "1.24s"; ms in the JSON, seconds in Prometheus
	TokensPerSecond             // "25.3", "1,820"
	Tokens                      // "1,921"
	Share                       // 0–1 as "82%"
	Count                       // Value of Of: "3/4"; Prometheus the share
	PerSecond                   // events per second: "1.25/s"
)

// Better is which way a figure improves.
type Better int

// Directions.
const (
	LowerIsBetter Better = iota
	HigherIsBetter
)

// Reading is a figure's value for one provider. OK is false when it is
// undefined; Why then says why, where that tells something ("1 size").
// Approx marks an estimate ("≈ 1,820"); Of is a Count's whole.
type Reading struct {
	Value  float64
	Of     int
	OK     bool
	Approx bool
	Why    string
}

// Text is r as every view writes it (package format): "850ms", "≈ 1,820",
// "3/4", "82%"; "-" when undefined, with why beside it ("- 1 size").
func (f Figure) Text(r Reading) string {
	if !r.OK {
		if r.Why != "" {
			return format.Undefined + " " + r.Why
		}
		return format.Undefined
	}
	var s string
	switch f.Unit {
	case Seconds:
		s = format.Duration(time.Duration(r.Value * float64(time.Second)))
	case TokensPerSecond:
		s = format.TPS(r.Value)
	case Tokens:
		s = format.Tokens(r.Value)
	case Share:
		s = format.Percent(r.Value)
	case Count:
		s = strconv.Itoa(int(r.Value)) + "/" + strconv.Itoa(r.Of)
	case PerSecond:
		s = strconv.FormatFloat(r.Value, 'f', 2, 64) + "/s"
	}
	if r.Approx {
		s = "≈ " + s
	}
	return s
}

// GaugeValue is r in the gauge's unit (a Count as its share); ok false
// when undefined, or a Count of nothing.
func (f Figure) GaugeValue(r Reading) (float64, bool) {
	if f.Unit == Count {
		return r.Value / float64(r.Of), r.OK && r.Of > 0
	}
	return r.Value, r.OK
}

// Description is a workload's figures and how its races read on the
// dashboard. Each workload describes itself in its own file
// (figures_*.go); describe registers it.
type Description struct {
	Workload string // workload.Names
	// Figures are its figures, most important first; w gives the sizes
	// a long-context race has a TTFT for.
	Figures func(w workload.Workload) []Figure
	// StepHeader and Step say where the race on screen is in its run
	// (a long-context size, a turn); "" for a workload of one race.
	StepHeader string
	Step       func(s workload.Step, of int) string
	// Waiting is the verdict's line after a race that is not its run's
	// last; of is "1/3".
	Waiting func(of string) string
	// NoText: the answer is no text (a tool call's arguments): no race
	// track, and a lane without text shows the figures in place of TTFT
	// and speed.
	NoText bool
	// AgentLoop: the race's answer is plain text, of which an agent's
	// chained calls are made, so a lane shows AgentLoop's estimate beside
	// it. Only chat's: a tool-call race's call is its own figure (time to
	// a complete call), and a json, long-context, cached-prefix or
	// multi-turn race's TTFT and speed are of a prompt no agent loop repeats.
	AgentLoop bool
}

var descriptions = map[string]Description{}

func describe(d Description) { descriptions[d.Workload] = d }

// Describe is w's Description.
func Describe(w workload.Workload) Description { return descriptions[w.Label()] }

// FiguresOf are w's figures, then, when some provider raced under an
// SLO, the SLO's (SLOFigures: good answers per second only at C > 1).
func FiguresOf(w workload.Workload, slo bool, concurrency int) []Figure {
	figs := slices.Clone(Describe(w).Figures(w))
	if slo {
		figs = append(figs, SLOFigures(concurrency)...)
	}
	return figs
}

// Durations and counts as Readings.
func dist(d Dist[time.Duration]) Reading { return Reading{Value: d.P50.Seconds(), OK: d.Has()} }
func speed(d Dist[float64]) Reading      { return Reading{Value: d.P50, OK: d.Has()} }
func count(n, of int) Reading            { return Reading{Value: float64(n), Of: of, OK: of > 0} }

// WorkloadGauges are every workload's figures that name a gauge, each
// gauge once, in workload.Names' order: the series watch exports, at zero
// before the first race. Help is led by the workload's name.
func WorkloadGauges() []Figure {
	var out []Figure
	seen := map[string]bool{}
	for _, name := range workload.Names {
		w, _ := workload.Named(name)
		for _, f := range FiguresOf(w, false, 1) {
			if f.Gauge != "" && !seen[f.Gauge] {
				seen[f.Gauge] = true
				f.Help = name + ": " + f.Help
				out = append(out, f)
			}
		}
	}
	return out
}
