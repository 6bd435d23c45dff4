package metrics

// SLOFigures are the figures of a race under an SLO (Summary.Goodput), after
// its workload's: how many streams met it, and at C > 1 how many good
// answers a second the provider served.
func SLOFigures(concurrency int) []Figure {
	figs := []Figure{{Header: "SLO", Name: "streams within the SLO", Key: "goodput.met / goodput.streams", Unit: Count, Better: HigherIsBetter,
		Help: "Ended streams that met every bound of the provider's SLO (a failure never does), of the ended streams.",
		Of:   func(wr WorkloadRuns) Reading { return count(wr.All.Goodput.Met, wr.All.Goodput.Streams) }}}
	if concurrency > 1 {
		figs = append(figs, Figure{Header: "good/s", Name: "goodput", Key: "goodput.per_second", Unit: PerSecond, Better: HigherIsBetter,
			Help: "Streams that met the SLO per second of race (each race's release to its last stream's end, summed).",
			Of: func(wr WorkloadRuns) Reading {
				return Reading{Value: wr.All.Goodput.PerSecond, OK: wr.All.Goodput.HasPerSecond}
			}})
	}
	return figs
}
