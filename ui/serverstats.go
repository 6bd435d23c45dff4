package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/config"
)

// The zoomed llama.cpp lane has a line under it about what the server itself
// counts (package llamastats). These are its hooks in the root model.

// zoomedLlama reports whether the zoomed lane is a llama.cpp server that is
// up: one whose /metrics the line reads.
func (m *Model) zoomedLlama() bool {
	return m.state == stateZoom && m.s.phase != phasePreparing && m.s.notReadyErr(m.zoom) == nil &&
		m.s.providers[m.zoom].Kind == config.KindLlamaCpp
}

// statsRows is the height of the line: 1 under a zoomed llama.cpp lane.
func (m *Model) statsRows() int {
	if m.zoomedLlama() {
		return 1
	}
	return 0
}

// watchServer reads the zoomed llama.cpp lane's /metrics, and stops reading
// when no such lane is zoomed.
func (m *Model) watchServer() tea.Cmd {
	if !m.zoomedLlama() {
		m.stats.Stop()
		return nil
	}
	return m.stats.Watch(m.c.ctx, m.zoom, m.s.providers[m.zoom])
}
