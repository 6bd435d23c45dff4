// Package workloadview is the dashboard's panel for the workloads that take
// several races a run, each race one step: long-context (a race per input
// size), cached-prefix (a cold race, then a warm one) and multi-turn (a race
// per turn). A race's lanes show that race; the panel shows what the steps
// add up to, every provider on one line:
//
//   - long-context: TTFT by input size as a small chart (input tokens left to
//     right, TTFT bottom to top, a line per provider in its lane colour, dash
//     pattern and marker, as the speed chart draws it) beside the prefill
//     estimate, "≈ 12,000 tok/s", the server's own prompt speed where it
//     reports one (llama.cpp) and, where they fit, the TTFT of each size.
//   - cached-prefix: cold and warm TTFT side by side, the saving, the cached
//     prompt tokens the provider reported ("none reported" when it said
//     nothing), and where it fits a bar: the warm TTFT solid, the rest of
//     the cold one light.
//   - multi-turn: the turn on screen ("turn 2/3"), each finished turn's
//     TTFT, speed and input tokens, and the conversation time so far.
//
// Every figure comes in Figures, computed by package metrics; the panel
// only lays them out. What does not fit gives way whole, least important
// first (columns from the right; multi-turn's input tokens, then speeds,
// then the earliest turns); a panel narrower than MinWidth shows nothing.
//
//	p := workloadview.New(workloadview.DefaultStyles(palette))
//	p.SetSize(80, 6)
//	p, _ = p.Update(workloadview.FrameMsg{Figures: figs})
//	fmt.Println(p.View())
package workloadview

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/theme"
	"tpsrace/workload"
)

// Figures are a workload's figures over the races of the run on screen so
// far, by provider (config order), all from package metrics.
type Figures struct {
	Workload string // workload.LongContext, CachedPrefix or MultiTurn; any other shows nothing
	// Step is the race on screen's step in its run, from 1, of Steps.
	Step, Steps int
	// InputTokens is the race on screen's prompt size (long-context's size,
	// cached-prefix's prefix); 0 when not padded.
	InputTokens int
	Providers   []Row
}

// Row is one provider's row of the panel: its figures over the run's finished races
// (metrics.WorkloadRunsOf): All's PrefillTPS and ServerPromptTPS and
// BySize (long-context), PrefixCache (cached-prefix), Races, a turn each,
// and the last of Runs, the conversation so far (multi-turn). They change
// only when a race of the run begins or ends, each time as new figures:
// the panel draws again only when some provider's are new (not per frame).
type Row struct {
	Name string
	*metrics.WorkloadRuns
}

// Shows is whether the panel has anything to show for workload name.
func Shows(name string) bool {
	return name == workload.LongContext || name == workload.CachedPrefix || name == workload.MultiTurn
}

// MinWidth is the narrowest panel that shows its figures.
const MinWidth = 40

// MinHeight is the panel's least height for providers providers: a title,
// a header and a line each.
func MinHeight(providers int) int { return providers + 2 }

// Rows is the height range the panel of workload name uses with providers
// providers: MinHeight, and more for long-context's chart (up to 14 lines);
// 0, 0 for a workload it does not show.
func Rows(name string, providers int) (least, most int) {
	switch {
	case !Shows(name):
		return 0, 0
	case name == workload.LongContext:
		return MinHeight(providers), max(MinHeight(providers), 14)
	}
	return MinHeight(providers), MinHeight(providers)
}

// Styles of the panel, each a lipgloss style with its escape sequences
// taken once (draw.Paint).
type Styles struct {
	Title     draw.Paint
	Label     draw.Paint // headers, axis labels, "-"
	Figure    draw.Paint
	Axis      draw.Paint
	Light     draw.Paint // the cold part of a cached-prefix bar
	Providers []draw.Paint
}

// DefaultStyles are built from palette p, after the colour profile and the
// background are decided (draw.Paint).
func DefaultStyles(p theme.Palette) Styles {
	return Styles{
		Title:     draw.NewPaint(lipgloss.NewStyle().Foreground(p.Muted).Bold(true)),
		Label:     draw.Foreground(p.Muted),
		Figure:    draw.NewPaint(lipgloss.NewStyle().Foreground(p.Text).Bold(p.Bold)),
		Axis:      draw.Foreground(p.Border),
		Light:     draw.Foreground(p.Faint),
		Providers: draw.Foregrounds(p.Providers),
	}
}

// provider is provider i's style.
func (s Styles) provider(i int) draw.Paint { return s.Providers[i%len(s.Providers)] }

// FrameMsg is the figures to show.
type FrameMsg struct{ Figures Figures }

// Model is the panel.
type Model struct {
	styles        Styles
	width, height int
	figures       Figures
	view          string
}

// New is an empty panel.
func New(styles Styles) Model { return Model{styles: styles} }

// SetSize sets the panel's size.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.render()
}

// Update handles FrameMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if msg, ok := msg.(FrameMsg); ok && !m.figures.same(msg.Figures) {
		m.figures = msg.Figures
		m.render()
	}
	return m, nil
}

// same is whether f and g show the same: the same step and, for every
// provider, the same figures (the same pointer).
func (f Figures) same(g Figures) bool {
	if f.Workload != g.Workload || f.Step != g.Step || f.Steps != g.Steps || f.InputTokens != g.InputTokens || len(f.Providers) != len(g.Providers) {
		return false
	}
	for i, p := range f.Providers {
		if p.Name != g.Providers[i].Name || p.WorkloadRuns != g.Providers[i].WorkloadRuns {
			return false
		}
	}
	return true
}

// View is the panel as last rendered: height lines of width columns.
func (m Model) View() string { return m.view }

func (m *Model) render() {
	f := m.figures
	var lines []string
	if m.width >= MinWidth && m.height >= MinHeight(len(f.Providers)) && f.ready() {
		switch f.Workload {
		case workload.LongContext:
			lines = m.longContext()
		case workload.CachedPrefix:
			lines = m.cachedPrefix()
		case workload.MultiTurn:
			lines = m.multiTurn()
		}
	}
	m.view = strings.Join(draw.Fit(lines, max(m.width, 0), max(m.height, 0)), "\n")
}

// ready is whether every provider has figures.
func (f Figures) ready() bool {
	for _, p := range f.Providers {
		if p.WorkloadRuns == nil {
			return false
		}
	}
	return true
}

// title is the panel's first line: the workload, then parts (the race on
// screen first), the last giving way whole first.
func (m *Model) title(parts ...string) string {
	segs := []draw.Segment{{Text: m.styles.Title.Render(m.figures.Workload), Rank: 0}}
	for i, p := range parts {
		segs = append(segs, draw.Segment{Text: m.styles.Label.Render(p), Rank: i + 1})
	}
	return " " + draw.Join(segs, m.styles.Label.Render(" · "), m.width-1)
}

// names is the first column: each provider's marker and name, in its
// colour, names cut to at most width columns.
func (m *Model) names(width int) column {
	c := column{left: true, cells: make([]string, len(m.figures.Providers))}
	for i, p := range m.figures.Providers {
		c.cells[i] = format.Truncate(string(draw.Marker(i))+" "+format.Name(p.Name, width-2), width, "…")
	}
	c.paint = func(i int, s string) string { return m.styles.provider(i).Render(s) }
	return c
}

// figure is a defined figure's text, or "-".
func figure(text string, ok bool) string {
	if !ok {
		return format.Undefined
	}
	return text
}

// ttft is a TTFT's median, or "-".
func ttft(d metrics.Dist[time.Duration]) string { return figure(format.Duration(d.P50), d.Has()) }
