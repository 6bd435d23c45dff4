package leaderboard

import (
	"strconv"
)

// feelFrom is the width from which the table has a "feel" column: how the
// settled streams felt (metrics.Felt.Label).
const feelFrom = 100

// refereeColumns say how fair and how felt the race was: at C > 1 with an
// SLO, how many streams met it (README, "Goodput under an SLO"); from
// feelFrom columns, the feel.
func (m *Model) refereeColumns(dash string) []column {
	var cols []column
	anySLO := false
	for _, f := range m.figures {
		anySLO = anySLO || f.SLOStreams > 0
	}
	if m.concurrency > 1 && anySLO {
		cols = append(cols, column{header: "SLO", width: 5, right: true, priority: 2, cell: func(r row) string {
			if r.f.SLOStreams == 0 {
				return dash
			}
			return strconv.Itoa(r.f.SLOMet) + "/" + strconv.Itoa(r.f.SLOStreams)
		}})
	}
	if m.width >= feelFrom {
		cols = append(cols, column{header: "feel", width: 6, priority: 4, cell: func(r row) string {
			if r.f.Feel == "" {
				return dash
			}
			return r.f.Feel
		}})
	}
	return cols
}
