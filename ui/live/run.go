package live

import (
	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/workload"
)

// Run is the races of the workload's run the race on screen belongs to
// (workload.Steps: the sizes of a long-context sweep, the cold and warm
// requests of cached-prefix, the turns of multi-turn; the other workloads'
// runs are one race): the streams of its steps that have finished, by
// provider, and each provider's figures over them (metrics.WorkloadRunsOf,
// what bench computes for the same races) with the referee's flags on
// them (metrics.Referee.WorkloadRunFlags, bench's too). The dashboard's
// session keeps one; Start and Finish bracket each race.
type Run struct {
	workload  workload.Workload
	steps     int           // races in a run
	step      workload.Step // the race on screen's
	prompt    string        // what the run races: another prompt or
	conc      int           // concurrency starts a new run
	finishAt  int           // --finish-at's N (0: none)
	providers []config.Provider
	races     [][][]metrics.Stream // provider → step → streams
	results   [][][]probes.Result  // step → provider → streams, for the referee
	figures   []*WorkloadRun       // provider index → its figures over races
}

// NewRun is the runs of w, none raced yet.
func NewRun(w workload.Workload) *Run { return &Run{workload: w, steps: len(w.Steps())} }

// Continues is whether a race of prompt and conc is the run's next step:
// another prompt or concurrency starts the workload's steps again.
func (r *Run) Continues(prompt string, conc int) bool {
	return r.races != nil && prompt == r.prompt && conc == r.conc
}

// Start puts the race on screen, of providers, at step of the run; the
// first step starts a new run. finishAt is --finish-at's N (0: none).
func (r *Run) Start(step workload.Step, prompt string, conc int, providers []config.Provider, finishAt int) {
	if step.Index == 0 {
		r.races, r.prompt, r.conc, r.finishAt = make([][][]metrics.Stream, len(providers)), prompt, conc, finishAt
		r.providers, r.results = providers, nil
	}
	r.step = step
	r.settle()
}

// Finish adds the race on screen's streams as its step, by provider index
// (a provider whose streams have not all ended adds none), and its results
// as the race returned them (with the client load the updates lack), for
// the referee.
func (r *Run) Finish(providers []*Lane, results [][]probes.Result) {
	for i := range r.races {
		for len(r.races[i]) < r.step.Index { // a stopped step: no streams
			r.races[i] = append(r.races[i], nil)
		}
		var streams []metrics.Stream
		if i < len(providers) {
			streams, _ = providers[i].MetricStreams(r.finishAt)
		}
		r.races[i] = append(r.races[i][:r.step.Index], streams)
	}
	for len(r.results) < r.step.Index { // a stopped step: no streams
		r.results = append(r.results, nil)
	}
	r.results = append(r.results[:r.step.Index], results)
	r.settle()
}

// settle computes each provider's figures and flags over the races so
// far: once per race started or finished, never per frame.
func (r *Run) settle() {
	ref := metrics.RefereeOf(r.providers, r.workload, r.results)
	r.figures = make([]*WorkloadRun, len(r.races))
	for i, races := range r.races {
		r.figures[i] = &WorkloadRun{Name: r.workload.Label(), Step: r.step.Index + 1, Steps: r.steps, OnScreen: r.step,
			Spec: r.workload, Concurrency: r.conc,
			InputTokens: r.step.InputTokens, Finished: len(races), WorkloadRuns: metrics.WorkloadRunsOf(r.workload, races, r.finishAt)}
		r.figures[i].Flags, r.figures[i].Load = ref.WorkloadRunFlags(r.workload, 0, i)
	}
}

// Apply gives each provider's figures (by provider index) its figures over
// the run and, once the race on screen has finished, the run's Metric and
// Rate to rank by (WorkloadRuns.Ranked).
func (r *Run) Apply(figs []Snapshot) {
	for i := range figs {
		if i < len(r.figures) {
			w := r.figures[i]
			figs[i].Workload = w
			if w.Settled() {
				figs[i].Metric, figs[i].Rate, figs[i].HasRate = workloadRate(w.Ranked)
			}
		}
	}
}

// More is whether the race on screen has finished and is not its run's
// last: the run's next step is due.
func (r *Run) More() bool {
	return len(r.races) > 0 && len(r.races[0]) == r.step.Index+1 && r.step.Index+1 < r.steps
}
