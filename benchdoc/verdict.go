package benchdoc

import (
	"tpsrace/metrics"
	"tpsrace/probes"
)

// Verdict is the JSON of metrics.Verdict: who is faster over the runs and
// how sure that is. Names are null when there is no winner (or runner-up),
// ratio when there is nothing to divide, ci95 below metrics.MinRunsForCI
// paired runs.
type Verdict struct {
	Winner       *string          `json:"winner"`
	RunnerUp     *string          `json:"runner_up"`
	Metric       string           `json:"metric"`
	Ratio        *float64         `json:"ratio"`
	CI95         *[2]float64      `json:"ci95"`
	Wins         int              `json:"wins"`
	Runs         int              `json:"runs"`
	Confident    bool             `json:"confident"`
	Text         string           `json:"text"`
	ColdFirstRun []string         `json:"cold_first_run"` // providers whose first run's TTFT was far above the rest
	RateLimited  map[string][]int `json:"rate_limited"`   // provider → runs answered 429
	// Flagged: for every flagged provider, flag → the paired runs (those
	// the verdict rests on) it touched; Doubt: the flags on the winner's and
	// runner-up's that could explain the margin (then confident is false),
	// metrics.Verdict's.
	Flagged map[string]map[string]int `json:"flagged"`
	Doubt   []string                  `json:"doubt"`
	// FlaggedText says it in words: "sim-lpu had cached prompts in 3/5 runs"; "" for none.
	FlaggedText string `json:"flagged_text"`
}

// Contenders are b's providers' runs as the verdict takes them
// (metrics.ContenderOf), in b's provider order (the config's): what the
// dashboard's --heats shows the median and spread of (metrics.OverRuns),
// each run with the flags touching any of its races
// (metrics.Referee.WorkloadRunFlags).
// A document read back from JSON has none.
func (b *Bench) Contenders() []metrics.Contender {
	c := make([]metrics.Contender, len(b.runs))
	for i, runs := range b.runs {
		c[i] = metrics.ContenderOf(b.Providers[i].Name, runs)
		for run := range runs {
			flags, load := b.referee.WorkloadRunFlags(b.workload, run, i)
			c[i].Flags, c[i].Load = append(c[i].Flags, flags), append(c[i].Load, load)
		}
	}
	return c
}

// verdict decides over b's providers in their ranking order; stop is
// where an interrupted bench stopped (nil: it ran its course).
func verdict(b *Bench, stop *metrics.Stop) Verdict {
	var ranked []metrics.Contender
	contenders := b.Contenders()
	for _, i := range b.RankedIndexes() {
		ranked = append(ranked, contenders[i])
	}
	v := metrics.Decide(ranked, finishAt(b))
	if stop != nil {
		v.Interrupt(*stop)
	}
	out := Verdict{Metric: v.Metric, Wins: v.Wins, Runs: v.Runs, Confident: v.Confident, Text: v.Text(),
		ColdFirstRun: v.Cold, RateLimited: v.RateLimited, Flagged: v.Flagged, Doubt: v.Doubt, FlaggedText: v.FlaggedText()}
	if out.Flagged == nil {
		out.Flagged = map[string]map[string]int{}
	}
	if out.Doubt == nil {
		out.Doubt = []string{}
	}
	if out.ColdFirstRun == nil {
		out.ColdFirstRun = []string{}
	}
	if out.RateLimited == nil {
		out.RateLimited = map[string][]int{}
	}
	if v.Winner != "" {
		out.Winner = ptr(v.Winner)
	}
	if v.RunnerUp != "" {
		out.RunnerUp = ptr(v.RunnerUp)
	}
	// Ratios to 0.001, as the other figures: meaningful, without float noise.
	if v.Runs > 0 {
		out.Ratio = ptr(round(v.Ratio, 1000))
	}
	if v.HasCI {
		out.CI95 = &[2]float64{round(v.CI95[0], 1000), round(v.CI95[1], 1000)}
	}
	return out
}

// stopOf is where a bench interrupted after races stopped, perRun races a
// run (a workload's steps) of the planned runs: its last run was cut when
// it lacks a step or a stream of it was cancelled mid-answer.
func stopOf(races [][][]probes.Result, perRun, planned int) metrics.Stop {
	perRun = max(perRun, 1)
	s := metrics.Stop{Runs: (len(races) + perRun - 1) / perRun, Planned: planned, Cut: len(races)%perRun != 0}
	if len(races) > 0 {
		for _, streams := range races[len(races)-1] {
			for _, res := range streams {
				s.Cut = s.Cut || res.Interrupted
			}
		}
	}
	return s
}
