package recording

import (
	"slices"

	"tpsrace/benchdoc"
)

// width is how many streams per provider race holds as its header
// promises them: the header's concurrency, or in a sweep the level the
// race was raced at, the lowest of the sweep's levels that holds its
// widest provider (a race the recording broke in may lack streams).
func (rec *Recording) width(race Race) int {
	if len(rec.Header.Sweep) == 0 {
		return rec.Header.Concurrency
	}
	widest := 0
	for _, streams := range race.Results {
		widest = max(widest, len(streams))
	}
	for _, level := range rec.Header.Sweep {
		if level >= widest {
			return level
		}
	}
	return widest
}

// SweepReport is what the bench report of a recorded sweep needs: the
// races grouped by level in the order raced (consecutive races of one
// width are that level's runs; the levels rise), and
// why it stopped climbing, asked again of the recorded races
// (benchdoc.Stop), so a replay reads as the live sweep did.
func (rec *Recording) SweepReport() benchdoc.SweepInput {
	in := benchdoc.SweepInput{Input: rec.Report(), Asked: slices.Clone(rec.Header.Sweep)}
	for _, race := range rec.Races {
		c := rec.width(race)
		if n := len(in.Levels); n == 0 || in.Levels[n-1].Concurrency != c {
			in.Levels = append(in.Levels, benchdoc.Level{Concurrency: c})
		}
		last := &in.Levels[len(in.Levels)-1]
		last.Races = append(last.Races, race.Results)
	}
	in.Stopped = benchdoc.Stop(in.Levels, in.Asked)
	return in
}
