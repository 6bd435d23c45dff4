package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// BenchmarkFrame is one frame of the dashboard at 160×48 mid-race: every
// figure, lane, the leaderboard and the chart. At 20 frames a second it
// must stay far under 50ms (the target is 0.5ms), so drawing never competes with the streams.
func BenchmarkFrame(b *testing.B) {
	cfg, updates, _ := recordedRace()
	m := New(Options{Config: cfg})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m.s.phase = phaseRacing
	m = update(m, releasedMsg{race: m.s.id, clock: wallClock(time.Now().Add(-time.Second))})
	m = update(m, batchMsg{race: m.s.id, updates: updates[:len(updates)/2]})
	b.ResetTimer()
	for range b.N {
		m.refresh()
	}
}
