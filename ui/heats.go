package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/benchdoc"
	"tpsrace/metrics"
	"tpsrace/ui/leaderboard"
)

// heatsPause is the pause between two heats, so the audience sees each result.
const heatsPause = 1500 * time.Millisecond

// nextHeatMsg starts the heat after race, unless another race began meanwhile.
type nextHeatMsg struct{ race int }

// heats is how many heats of Options.Heats the session's finished races
// make: a heat is a whole workload run (a long-context sweep's every size,
// a conversation's every turn), as a bench run is, so N heats are the
// first N × the run's steps races (0 without --heats).
func (m *Model) heats() int {
	if m.c.opts.Heats < 2 {
		return 0
	}
	return min(len(m.s.history)/m.s.steps.PerRun(), m.c.opts.Heats)
}

// heatsReport is the bench report of the heats so far (nil before the
// first has ended): the verdict and the figures over the heats come from
// it, as they do for bench --runs.
func (m *Model) heatsReport() *benchdoc.Bench {
	n := m.heats()
	if n == 0 {
		return nil
	}
	return benchdoc.Build(benchdoc.Input{Config: m.s.saveConfig(m.c.config), Concurrency: m.s.historyConc, Races: m.s.history[:n*m.s.steps.PerRun()],
		FinishAt: m.c.opts.FinishAt})
}

// showHeats gives the leaderboard the standing over the heats of b (none
// when b is nil): per provider the median and spread over the heats of the
// verdict's own per-run figures (benchdoc's Contenders, metrics.OverRuns),
// ranked as the verdict ranks.
func (m *Model) showHeats(b *benchdoc.Bench) {
	of := 0
	if m.c.opts.Heats >= 2 {
		of = m.c.opts.Heats
	}
	if b == nil {
		m.board.SetHeats(leaderboard.Heats{Of: of})
		return
	}
	h := leaderboard.Heats{Of: of, Done: b.Runs, Order: b.RankedIndexes(), FinishAt: m.c.opts.FinishAt,
		Heat: m.heats(), Verdict: b.Verdict.Text, Flagged: b.Verdict.FlaggedText}
	for _, c := range b.Contenders() {
		h.Over = append(h.Over, metrics.OverRuns(c, b.Verdict.Metric, m.c.opts.FinishAt))
	}
	m.board.SetHeats(h)
}

// afterHeat, once a heat has finished (its run's last step), shows the
// standing over the heats so far and their verdict (the leaderboard's
// headline: benchdoc's contenders, decided as bench decides) and starts
// the next one after a pause.
func (m *Model) afterHeat() tea.Cmd {
	n, perRun := m.heats(), m.s.steps.PerRun()
	if n == 0 || len(m.s.history)%perRun != 0 || len(m.s.history) > m.c.opts.Heats*perRun {
		return nil
	}
	m.showHeats(m.heatsReport())
	if n == m.c.opts.Heats {
		return nil
	}
	race := m.s.id
	return tea.Tick(heatsPause, func(time.Time) tea.Msg { return nextHeatMsg{race: race} })
}

// heatStatus is the header's "heat 2/5" while heats run (each heat a
// whole workload run).
func (m *Model) heatStatus() string {
	perRun := m.s.steps.PerRun()
	if m.c.opts.Heats < 2 || len(m.s.history) >= m.c.opts.Heats*perRun {
		return ""
	}
	return m.c.styles.Status.Render("heat " + itoa(len(m.s.history)/perRun+1) + "/" + itoa(m.c.opts.Heats))
}

// afterStep, once a race that is not its workload run's last has finished,
// starts the run's next step after the heats' pause: a long-context
// sweep's sizes, cached-prefix's warm request and multi-turn's turns race
// back to back, as bench races them, within a heat as without (afterHeat
// starts the next heat once a run has ended); a replay shows its one
// recorded race.
func (m *Model) afterStep() tea.Cmd {
	if m.replay != nil || !m.s.run.More() {
		return nil
	}
	race := m.s.id
	return tea.Tick(heatsPause, func(time.Time) tea.Msg { return nextHeatMsg{race: race} })
}
