package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/report"
)

// heatsPause is the pause between two heats, so the audience sees each result.
const heatsPause = 1500 * time.Millisecond

// nextHeatMsg starts the heat after race, unless another race began meanwhile.
type nextHeatMsg struct{ race int }

// heats is how many of the session's finished races are heats of
// Options.Heats: its first N (0 without --heats).
func (m *Model) heats() int {
	if m.opts.Heats < 2 {
		return 0
	}
	return min(len(m.s.history), m.opts.Heats)
}

// afterHeat, once a heat has finished, says the verdict over the heats so
// far (report's, the bench verdict) and starts the next one after a pause.
func (m *Model) afterHeat() tea.Cmd {
	n := m.heats()
	if n == 0 || len(m.s.history) > m.opts.Heats {
		return nil
	}
	b := report.Build(report.Input{Config: m.s.saveConfig(m.opts.Config), Concurrency: m.s.historyConc, Races: m.s.history[:n],
		FinishAt: m.opts.FinishAt})
	m.say(false, "heat "+itoa(n)+"/"+itoa(m.opts.Heats)+": "+b.Verdict.Text)
	if n == m.opts.Heats {
		return nil
	}
	race := m.s.id
	return tea.Tick(heatsPause, func(time.Time) tea.Msg { return nextHeatMsg{race: race} })
}

// heatStatus is the header's "heat 2/5" while heats run.
func (m *Model) heatStatus() string {
	if m.opts.Heats < 2 || len(m.s.history) >= m.opts.Heats {
		return ""
	}
	return m.styles.Status.Render("heat " + itoa(len(m.s.history)+1) + "/" + itoa(m.opts.Heats))
}
