package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/ui/lane"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/speedchart"
	"tpsrace/ui/workloadview"
)

// races are the race on screen and the earlier ones, stopped and maybe
// still winding down, that shutdown waits for.
type races struct {
	current   *runner // nil before the first release
	cancelled []*runner
}

// next waits for the current race's next message.
func (r *races) next() tea.Cmd { return r.current.next() }

// retire keeps the current race among the cancelled ones until it has
// wound down; those already ended are dropped.
func (r *races) retire() {
	if r.current == nil {
		return
	}
	var running []*runner
	for _, rn := range append(r.cancelled, r.current) {
		select {
		case <-rn.done:
		default:
			running = append(running, rn)
		}
	}
	r.cancelled = running
}

// startRace cancels the race on screen, if any, and starts a new one with
// the current prompt and concurrency. While Prepare runs it starts nothing:
// the first race, at its end, takes the prompt and concurrency set meanwhile.
func (m *Model) startRace() tea.Cmd {
	if m.s.phase == phasePreparing {
		m.say(false, "the race starts once the local servers are ready")
		return nil
	}
	m.stop()
	m.races.retire()
	m.footer.message = "" // a note about the next race ("concurrency 4 from the next race") is now stale
	if m.present != nil {
		m.s.countdown()
		m.newPanes()
		m.relayout()
		cmd := m.present.countdown(m.s.id)
		m.refresh()
		return cmd
	}
	return m.release()
}

// drawBeforeRelease is how long after the key (or the countdown's end)
// the race is released: one frame, in which the screen for the race is
// drawn, the whole window changed. Drawn at the release, that competed
// for the cores with the streams' first steps: on a 2-core guest the
// presenter's start skew was 2.4 ms in the median of 13 races, 1.2 ms
// with this wait (docs/DASHBOARD.md).
const drawBeforeRelease = FrameInterval

// release starts the race, drawBeforeRelease from now (or at --start-at):
// no request is sent before it.
func (m *Model) release() tea.Cmd {
	m.tick++
	race := m.s.begin(m.c.opts.Retries, m.c.clients)
	race.Warm = m.c.opts.Warm
	if m.s.id == 1 {
		race.StartAt = m.c.opts.StartAt
	}
	if race.StartAt.IsZero() {
		race.StartAt = time.Now().Add(drawBeforeRelease)
	}
	m.newPanes()
	m.races.current = startRace(m.c.ctx, m.s.id, m.c.source(race))
	m.relayout()
	m.refresh()
	return m.races.next() // its batches are its frames
}

// batch records a batch of the race on screen and draws the frame it is
// (the relay sends one a frame); another race's is dropped.
func (m *Model) batch(msg batchMsg) tea.Cmd {
	if msg.race != m.s.id {
		return nil
	}
	m.s.record(msg.updates)
	if !m.paused {
		m.refresh()
	}
	return m.races.next()
}

// raceDone settles the race on screen and draws its last frame, with the
// verdict over the heats that afterHeat sets; another race's is dropped.
func (m *Model) raceDone(msg raceDoneMsg) tea.Cmd {
	if msg.race != m.s.id {
		return nil
	}
	m.s.finish(msg.results)
	cmd := tea.Batch(m.recordHistory(), m.afterHeat(), m.afterStep())
	if !m.paused {
		m.refresh()
	}
	return cmd
}

// newPanes makes the lanes, the leaderboard, the chart and the workload
// panel for the session's race on screen.
func (m *Model) newPanes() {
	styles := m.c.styles
	names := make([]string, len(m.s.live))
	m.lanes = make([]lane.Model, len(m.s.live))
	for i, p := range m.s.live {
		m.lanes[i] = lane.New(p, styles.Lane.WithAccent(styles.Palette.ProviderColor(i)))
		names[i] = p.Name
	}
	m.board = leaderboard.New(names, m.s.conc, styles.Leaderboard)
	m.showHeats(m.heatsReport()) // the standing over the heats stays beside the next heat
	plot := m.chart.Plot
	m.chart = speedchart.New(names, styles.Chart)
	m.chart.Plot, m.chart.PerUser = plot, m.s.conc > 1
	m.panel = workloadview.New(styles.Workload)
	if m.zoom >= len(m.lanes) {
		m.zoom, m.state, m.back = 0, stateGrid, stateGrid
	}
	if m.zoomed() {
		m.lanes[m.zoom].SetZoomed(true)
	}
	m.focus = m.focus.within(len(m.lanes))
	m.applyFocus()
}

// stop cancels the race in flight; its streams end in the background.
func (m *Model) stop() {
	if m.races.current != nil && m.s.phase.running() {
		m.races.current.stop()
	}
	m.s.stop()
}

// shutdown cancels Prepare and the race and waits for them and every
// stream of every race to end, then drops idle connections: nothing of the
// dashboard runs after it. The race stopped in flight (q, ctrl+c, a
// signal) is kept as bench keeps it, its streams so far marked
// interrupted, and Options.RecordPath is written a last time, with it.
func (m *Model) shutdown() error {
	if m.prep != nil {
		m.prep.stop()
	}
	m.stats.Stop()
	m.stop()
	m.races.retire()
	for _, r := range m.races.cancelled {
		r.wait()
	}
	m.c.clients.Close()
	inFlight := false
	if r := m.races.current; r != nil && r.id == m.s.id && m.s.phase == phaseStopped && r.results != nil {
		m.s.finish(r.results)
		inFlight = true
	}
	if write := m.recordWrite(inFlight); write != nil {
		return write()
	}
	return nil
}

// ticking is whether the model draws frames of its own: while Prepare's
// progress comes. A race's frames are its batches (batchMsg).
func (m *Model) ticking() bool { return m.s.phase == phasePreparing }

func (m *Model) nextFrame() tea.Cmd {
	tick := m.tick
	return tea.Tick(FrameInterval, func(time.Time) tea.Msg { return frameMsg{tick: tick} })
}
