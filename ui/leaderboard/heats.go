package leaderboard

import (
	"math"
	"strconv"
	"time"

	"github.com/charmbracelet/lipgloss"

	"tpsrace/format"
	"tpsrace/metrics"
)

// Heats is the standing over the heats run so far (the dashboard's
// --heats N), for the leaderboard's heats columns: per provider the median
// over the heats of each headline figure and how far the heats spread
// around it ("1,893 ±4%": every heat within 4% of 1,893; metrics.Spread).
type Heats struct {
	Of       int            // heats to run (--heats N); 0: no heats
	Done     int            // heats finished; 0: no heats columns
	Over     []metrics.Over // by provider index (metrics.OverRuns)
	Order    []int          // provider indexes, best first over the heats (the verdict's ranking)
	FinishAt int            // --finish-at N: the speed column is the time to N tokens
	// Verdict and Flagged are bench's verdict over the heats so far and
	// the referee's flags on it (benchdoc.Verdict's Text, FlaggedText),
	// for the headline's "heat 2/3: …" line; Heat is the heats it is over.
	Heat             int
	Verdict, Flagged string
}

// SetHeats shows h's standing beside the race on screen: while a heat
// runs its live figures keep their columns and its live order, and the
// heats columns stand beside them; once it has ended the rows are ranked
// over the heats (h.Order, the verdict's order), so the final screen ranks
// as the verdict reads. A Heats that does not match the providers clears them.
func (m *Model) SetHeats(h Heats) {
	if len(h.Over) != len(m.names) || len(h.Order) != len(m.names) {
		h = Heats{Of: h.Of}
	}
	m.heats = h
	m.render()
}

// heatsOrder is the order over the heats once the race on screen has
// ended, nil while it runs or without heats.
func (m *Model) heatsOrder() []int {
	if m.heats.Done == 0 {
		return nil
	}
	for _, f := range m.figures {
		if !f.Settled {
			return nil
		}
	}
	return m.heats.Order
}

// heatsColumns are the median ± spread columns, empty without heats: the
// speed (or time to N) stays with the live speed; TTFT goes with the live
// finish and TTFT, total before the live total.
func (m *Model) heatsColumns() []column {
	if m.heats.Done == 0 {
		return nil
	}
	dash := m.styles.Muted.Render(format.Undefined)
	cell := func(pick func(metrics.Over) metrics.Spread, show func(float64) string) func(row) string {
		return func(r row) string {
			s := pick(m.heats.Over[r.index])
			if s.Runs == 0 {
				return dash
			}
			text := show(s.Median)
			if s.Runs > 1 {
				text += " " + m.styles.Muted.Render(Within(s.Within()))
			}
			return text
		}
	}
	duration := func(ns float64) string { return format.Duration(time.Duration(ns)) }
	speed := column{header: heatsHeader(m.heats), right: true, priority: 0,
		cell: cell(func(o metrics.Over) metrics.Spread { return o.Speed }, func(v float64) string { return m.styles.Figure.Render(format.TPS(v)) })}
	if !metrics.IsSpeed(m.heats.Over[0].Metric) {
		speed.cell = cell(func(o metrics.Over) metrics.Spread { return o.Time }, func(v float64) string { return m.styles.Figure.Render(duration(v)) })
	}
	speed.width = max(11, lipgloss.Width(speed.header))
	return []column{speed,
		{header: "heats TTFT", width: 10, right: true, priority: 1,
			cell: cell(func(o metrics.Over) metrics.Spread { return o.TTFT }, duration)},
		{header: "heats total", width: 11, right: true, priority: 2,
			cell: cell(func(o metrics.Over) metrics.Spread { return o.Total }, duration)},
	}
}

// heatsHeader names the verdict's figure over the heats (metrics.Over's
// Metric): a speed in tok/s, or the time a workload or --finish-at times.
func heatsHeader(h Heats) string {
	switch h.Over[0].Metric {
	case metrics.FinishMetric:
		return "heats to " + format.Count(h.FinishAt)
	case metrics.PrefillMetric:
		return "heats prefill"
	case metrics.ToolCallMetric:
		return "heats call"
	case metrics.JSONMetric:
		return "heats valid"
	case metrics.WarmMetric:
		return "heats warm"
	case metrics.ConversationMetric:
		return "heats conv"
	case metrics.AnswerMetric:
		return "heats answer"
	}
	return "heats tok/s"
}

// Within shows a spread (metrics.Spread.Within) in whole percent:
// "±4%", "±<1%" for a spread that rounds to 0, "±0%" for none.
func Within(w float64) string {
	pct := int(math.Round(w * 100))
	if pct == 0 && w > 0 {
		return "±<1%"
	}
	return "±" + strconv.Itoa(pct) + "%"
}
