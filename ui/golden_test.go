package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
)

func update(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

// finishedRace is the dashboard at the end of recordedRace, at w × h.
func finishedRace(w, h int) Model {
	cfg, updates, results := recordedRace()
	m := New(Options{Config: cfg})
	m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
	m = update(m, releasedMsg{race: m.s.id, clock: fixedClock(time.Second)})
	m = update(m, batchMsg{race: m.s.id, updates: updates})
	return update(m, raceDoneMsg{race: m.s.id, results: results})
}

// Goldens of the final view (go test ./ui -update rewrites them).
func TestGoldenFinished80x24(t *testing.T) {
	golden.RequireEqual(t, []byte(finishedRace(80, 24).View()))
}
func TestGoldenFinished160x48(t *testing.T) {
	golden.RequireEqual(t, []byte(finishedRace(160, 48).View()))
}
