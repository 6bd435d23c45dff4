package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// concurrencySteps are what `c` cycles through.
var concurrencySteps = []int{1, 4, 16, 64}

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	next, cmd := m.handleKeyOf(msg)
	if m, ok := next.(Model); ok && cmd == nil {
		return m, m.watchServer() // a key may have zoomed a llama.cpp lane, or left it
	}
	return next, cmd
}

// handleKeyOf gives the key to the editor while it is open, then to the
// replay's keys, then matches the dashboard's.
func (m Model) handleKeyOf(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.state == stateEditor {
		return m.editorKey(msg)
	}
	if m.replay != nil {
		if cmd, ok := m.replayKey(msg); ok {
			return m, cmd
		}
	}
	k := m.c.keys
	switch {
	case key.Matches(msg, k.Quit):
		m.c.interrupted = msg.Type == tea.KeyCtrlC
		m.stop()
		return m, tea.Quit
	case key.Matches(msg, k.Race):
		m.s.newRun()
		return m, m.startRace()
	case key.Matches(msg, k.Edit):
		m.editor.open(m.s.prompt)
		m.setState(stateEditor)
	case m.present != nil && key.Matches(msg, k.Zoom, k.Focus, k.FocusBack):
		// One screen for the room: no lane shows a model ID or an error's detail.
	case key.Matches(msg, k.Zoom):
		if i := int(msg.Runes[0] - '1'); i < len(m.lanes) {
			m.setZoom(i)
		}
	case key.Matches(msg, k.Back):
		m.goBack()
	case key.Matches(msg, k.Focus, k.FocusBack):
		m.moveFocus(key.Matches(msg, k.FocusBack))
	case key.Matches(msg, k.Concurrency):
		m.s.concurrency = nextConcurrency(m.s.concurrency)
		when := " from the next race: press r to race"
		if m.s.phase == phasePreparing {
			when = " for the first race"
		}
		m.say(false, "concurrency "+itoa(m.s.concurrency)+when)
	case key.Matches(msg, k.Pause):
		m.paused = !m.paused
		if m.paused {
			m.compose()
			return m, nil
		}
		m.refresh()
		if m.ticking() {
			m.tick++
			return m, m.nextFrame()
		}
	case key.Matches(msg, k.Chart):
		m.chart.Toggle()
		m.compose()
	case key.Matches(msg, k.Save):
		return m, m.save()
	case key.Matches(msg, k.Help):
		switch {
		case m.state == stateHelp && m.drawn.helpAt+1 < len(m.drawn.pages):
			m.drawn.helpAt++ // the next page
			m.compose()
		case m.state == stateHelp:
			m.setState(m.back)
		default:
			m.drawn.helpAt = 0
			m.back = m.state
			m.setState(stateHelp)
		}
	default:
		if m.zoomed() {
			m.lanes[m.zoom], _ = m.lanes[m.zoom].Update(msg)
			m.compose()
		}
	}
	return m, nil
}

// goBack leaves help for the screen before it, a zoom for the grid, or
// drops the focus.
func (m *Model) goBack() {
	switch {
	case m.state == stateHelp:
		m.setState(m.back)
	case m.state == stateZoom:
		m.setState(stateGrid)
	case m.focus.ok:
		m.setFocus(selection{})
	}
}

// moveFocus moves the focus to the next lane, or the previous one, and
// the zoom with it.
func (m *Model) moveFocus(backwards bool) {
	n := len(m.lanes)
	if n == 0 {
		return
	}
	next := m.focus.next(n)
	if backwards {
		next = m.focus.previous(n)
	}
	m.setFocus(next)
	if m.zoomed() {
		m.setZoom(next.lane)
	}
}

// editorKey gives a key to the prompt editor and acts on what it did:
// closed, or a prompt confirmed, which races at once.
func (m Model) editorKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if msg.Type == tea.KeyCtrlC {
		m.c.interrupted = true
		m.stop()
		return m, tea.Quit
	}
	var cmd tea.Cmd
	var outcome editOutcome
	*m.editor, cmd, outcome = m.editor.Update(msg)
	switch outcome {
	case editCancelled:
		m.setState(stateGrid)
	case editEmpty:
		m.say(true, "the prompt is empty")
	case editConfirmed:
		m.s.prompt = m.editor.prompt()
		m.setState(stateGrid)
		return m, m.startRace()
	default:
		m.compose()
	}
	return m, cmd
}

// replayKey gives a key to the replay and acts on what it did; handled
// is false for keys that are not the replay's.
func (m *Model) replayKey(msg tea.KeyMsg) (cmd tea.Cmd, handled bool) {
	switch m.replay.Update(msg, m.s.now(), m.zoomed()) {
	case replayIgnored:
		return nil, false
	case replayScrubbedBack:
		// The lanes hold what has arrived, so the past is rebuilt, not
		// undone: the race replays again up to the new position, at once
		// (presenter mode's countdown is for a start, not a scrub).
		m.stop()
		m.races.retire()
		return m.release(), true
	case replayRestarted:
		return m.startRace(), true
	case replayFixed:
		m.say(true, "a replay shows the recorded race: its prompt and concurrency are fixed")
		return nil, true
	}
	m.compose()
	return nil, true
}

// setState switches the screen to st.
func (m *Model) setState(st state) {
	if m.state == stateEditor && st != stateEditor {
		m.editor.close()
	}
	m.state = st
	for i := range m.lanes {
		m.lanes[i].SetZoomed(m.zoomed() && i == m.zoom)
	}
	m.relayout()
	m.refresh()
}

// zoomed is whether one lane fills the screen: zoomed, or help over a zoom.
func (m *Model) zoomed() bool {
	return m.state == stateZoom || m.state == stateHelp && m.back == stateZoom
}

// setZoom zooms lane i.
func (m *Model) setZoom(i int) {
	m.zoom, m.focus = i, focused(i)
	m.applyFocus()
	m.setState(stateZoom)
}

func (m *Model) setFocus(s selection) {
	m.focus = s
	m.applyFocus()
	m.compose()
}

func (m *Model) applyFocus() {
	for i := range m.lanes {
		m.lanes[i].SetFocused(m.focus.is(i))
	}
	m.board.SetFocus(m.focus.lane, m.focus.ok)
}

func (m *Model) say(failed bool, message string) {
	m.footer.message, m.footer.failed = message, failed
	m.compose()
}

func nextConcurrency(c int) int {
	for _, s := range concurrencySteps {
		if s > c {
			return s
		}
	}
	return concurrencySteps[0]
}
