package leaderboard

import (
	"tpsrace/format"
	"tpsrace/metrics"
)

// speedColumns are a chat race's headline: TTFT and the per-user speed
// the board ranks by.
func (m *Model) speedColumns(dash, speedHeader string) []column {
	s := m.styles
	return []column{
		{header: "TTFT", width: 6, right: true, priority: 1, cell: func(r row) string {
			f := r.f
			if !f.HasTTFT {
				return dash
			}
			return format.Duration(f.TTFT)
		}},
		{header: speedHeader, width: 8, right: true, priority: 0, cell: func(r row) string {
			f := r.f
			if !f.HasSpeed {
				return dash
			}
			return s.Figure.Render(format.TPS(f.Speed))
		}},
	}
}

// wordsColumn is the speed in words a second, for a reader.
func wordsColumn(dash string) column {
	return column{header: "words/s", width: 7, right: true, priority: 5, cell: func(r row) string {
		f := r.f
		if !f.HasSpeed {
			return dash
		}
		return "≈" + format.TPS(metrics.WordsPerSecond(f.Speed))
	}}
}
