package leaderboard

import (
	"strconv"
)

// refereeColumns say how fair and how felt the race was: with an SLO, how
// many streams met it (docs/METRICS.md, "Goodput under an SLO"; at C = 1
// too, as bench's table shows it: a user who set an SLO sees it judged); once a
// provider has settled with one, the feel of its streams
// (metrics.Felt.Label). The feel outranks tokens, words/s and cost
// (fitColumns): a stall the average hides shows nowhere else on the board,
// while the track shows the distance and words/s is tok/s again.
func (m *Model) refereeColumns(dash string) []column {
	var cols []column
	anySLO, anyFeel := false, false
	for _, f := range m.figures {
		anySLO = anySLO || f.SLOStreams > 0
		anyFeel = anyFeel || f.Feel != ""
	}
	if anySLO {
		cols = append(cols, column{header: "SLO", width: 5, right: true, priority: 2, cell: func(r row) string {
			if r.f.SLOStreams == 0 {
				return dash
			}
			return strconv.Itoa(r.f.SLOMet) + "/" + strconv.Itoa(r.f.SLOStreams)
		}})
	}
	if anyFeel {
		cols = append(cols, column{header: "feel", width: 6, priority: 3, cell: func(r row) string {
			if r.f.Feel == "" {
				return dash
			}
			return r.f.Feel
		}})
	}
	return cols
}
