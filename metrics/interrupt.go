package metrics

import (
	"strconv"

	"tpsrace/format"
)

// Stop is where a bench was interrupted (ctrl+c, SIGTERM) before its last
// run ended.
type Stop struct {
	Runs    int  // the runs begun (a run of a workload is all its steps' races)
	Planned int  // the runs asked for (bench --runs N); 0 when not known (a recording, the dashboard)
	Cut     bool // the last run begun was stopped part-way
}

// String says where: "interrupted after 3/20 runs", "interrupted in run
// 4/20" (that run cut part-way), "interrupted after 3 runs" when the runs
// asked for are not known.
func (s Stop) String() string {
	of := ""
	if s.Planned > 0 {
		of = "/" + strconv.Itoa(s.Planned)
	}
	if s.Cut {
		return "interrupted in run " + strconv.Itoa(s.Runs) + of
	}
	if of != "" {
		return "interrupted after " + strconv.Itoa(s.Runs) + of + " runs"
	}
	return "interrupted after " + format.Plural(s.Runs, "run")
}

// Interrupt makes v a verdict over a bench stopped at s: never confident,
// however clear its interval (the runs left out were chosen by the stop,
// not by the plan, and a cut run's streams were cancelled mid-answer), and
// its text begins with where it stopped.
func (v *Verdict) Interrupt(s Stop) {
	v.Stopped = &s
	v.Confident = false
}
