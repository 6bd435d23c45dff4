// Package llamastats is the zoomed llama.cpp lane's line about what the
// server itself counts, read from its GET /metrics once a second while the
// lane is zoomed:
//
//	llama-server /metrics: 2 busy slots · 1 deferred · 1,536 tokens generated at 1,280 tok/s
//
// The busy slots and the deferred requests (waiting for a slot) are the
// state at the last reading; the tokens and their speed are the server's
// totals since it started (it adds a request when the request ends), the
// same counters `tpsrace bench` reports after its races.
//
//	cmd := stats.Watch(ctx, i, provider) // when lane i is zoomed
//	stats, cmd = stats.Update(msg)        // the Msg that cmd returns
//	stats.Stop()                          // when it is not
//
// The reading happens in the command; the Msg carries what it read, and
// View only formats it.
package llamastats

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/llamacpp"
	"tpsrace/metrics"
	"tpsrace/ui/theme"
)

const (
	// Interval is the time between two readings: the gauges move with
	// requests, which take seconds, and each reading costs the server a
	// pass of its task loop.
	Interval = time.Second
	// fetchTimeout bounds one reading; a local server answers in a millisecond.
	fetchTimeout = 2 * time.Second
)

// Styles of the line.
type Styles struct {
	Label, Value, Error lipgloss.Style
}

// DefaultStyles are the line's styles from palette p.
func DefaultStyles(p theme.Palette) Styles {
	return Styles{
		Label: lipgloss.NewStyle().Foreground(p.Muted),
		Value: lipgloss.NewStyle().Foreground(p.Text).Bold(true),
		Error: lipgloss.NewStyle().Foreground(p.Bad),
	}
}

// Msg is one reading of /metrics for the watch tagged tag.
type Msg struct {
	tag     int
	metrics map[string]float64
	err     error
}

// Model watches one llama.cpp provider's /metrics.
type Model struct {
	Styles Styles

	lane     int // the zoomed lane watched, -1 for none
	provider config.Provider
	tag      int                // of the current watch: readings of earlier ones are dropped
	ctx      context.Context    // the current watch's: its readings end with it
	cancel   context.CancelFunc // nil when nothing is watched

	metrics map[string]float64 // the last reading, nil before the first
	err     error              // why the last reading failed
}

// New is a Model that watches nothing.
func New(styles Styles) Model { return Model{Styles: styles, lane: -1} }

// Watch starts reading p's /metrics for lane, now and then every Interval,
// until Stop or ctx's end. Watching the lane already watched changes nothing.
func (m *Model) Watch(ctx context.Context, lane int, p config.Provider) tea.Cmd {
	if m.cancel != nil && m.lane == lane {
		return nil
	}
	m.Stop()
	m.ctx, m.cancel = context.WithCancel(ctx)
	m.lane, m.provider, m.metrics, m.err = lane, p, nil, nil
	m.tag++
	return read(m.ctx, m.tag, p, 0)
}

// Stop ends the watch; a reading in flight is dropped.
func (m *Model) Stop() {
	if m.cancel != nil {
		m.cancel()
	}
	m.ctx, m.cancel, m.lane = nil, nil, -1
	m.tag++
}

// read reads p's /metrics after delay, unless ctx ends first.
func read(ctx context.Context, tag int, p config.Provider, delay time.Duration) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil
		}
		ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		got, err := llamacpp.FetchMetrics(ctx, p)
		return Msg{tag: tag, metrics: got, err: err}
	}
}

// Update takes a reading and schedules the next.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	r, ok := msg.(Msg)
	if !ok || r.tag != m.tag || m.cancel == nil {
		return m, nil
	}
	if r.err != nil {
		m.err = r.err
	} else {
		m.metrics, m.err = r.metrics, nil
	}
	return m, read(m.ctx, m.tag, m.provider, Interval)
}

// View is the line, "" when nothing is watched.
func (m Model) View() string {
	s := m.Styles
	if m.cancel == nil {
		return ""
	}
	line := s.Label.Render("llama-server /metrics: ")
	switch {
	case m.err != nil:
		return line + s.Error.Render(m.err.Error())
	case m.metrics == nil:
		return line + s.Label.Render("reading…")
	}
	v := func(f float64) string { return s.Value.Render(format.Count(int(f))) }
	sep := s.Label.Render(" · ")
	busy := m.metrics[llamacpp.MetricRequestsProcessing]
	line += v(busy) + s.Label.Render(format.OneOrMany(busy, " busy slot", " busy slots")) + sep +
		v(m.metrics[llamacpp.MetricRequestsDeferred]) + s.Label.Render(" deferred") + sep
	tokens := m.metrics[llamacpp.MetricPredictedTokens]
	line += v(tokens) + s.Label.Render(format.OneOrMany(tokens, " token generated", " tokens generated"))
	if tps, ok := metrics.ServerCountedTPS(tokens, m.metrics[llamacpp.MetricPredictedSeconds]); ok {
		line += s.Label.Render(" at ") + s.Value.Render(format.TPS(tps)) + s.Label.Render(" tok/s")
	}
	return line
}
