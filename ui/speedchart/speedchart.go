// Package speedchart shows the race over time in one chart drawn in
// braille (2×4 dots a cell, ntcharts' braille grid), time since release left to right (the whole
// race always fills the width). Two plots, Toggle switches:
//
//   - Tokens (the default): each provider's per-user tokens so far
//     (live.Lane.TokenSeries). The slope is its speed; a line ends
//     where its provider finished and stays there; the top is the race
//     track's finish line.
//   - Speed: per-user live tok/s (metrics.LiveTPS), on the scale the
//     lanes' sparklines share (live.Scale: logarithmic past 10×), each
//     line ending where its provider finished.
//
// Lines are told apart without colour: each has its own dash pattern and
// end marker, and its label (marker and name) sits at the right edge at
// the height where the line ends, so no legend wraps. A provider whose
// every stream failed draws nothing.
//
//	c := speedchart.New(names, speedchart.DefaultStyles(p))
//	c.SetSize(64, 11)
//	c, _ = c.Update(speedchart.FrameMsg{Until: now, Providers: providers, Finish: 400, Scale: scale})
//	fmt.Println(c.View())
package speedchart

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

// Plot is what the chart draws.
type Plot int

// Plots.
const (
	Tokens Plot = iota // tokens so far: the race
	Speed              // live tok/s
)

// Styles of the chart, each a lipgloss style with its escape sequences
// taken once (draw.Paint).
type Styles struct {
	Title     draw.Paint
	Axis      draw.Paint
	Label     draw.Paint
	Providers []draw.Paint // provider i's line and label: Providers[i%len(Providers)]
}

// DefaultStyles are built from palette p. Call it once the colour profile
// and the background are decided (draw.Paint).
func DefaultStyles(p theme.Palette) Styles {
	return Styles{
		Title:     draw.NewPaint(lipgloss.NewStyle().Foreground(p.Muted).Bold(true)),
		Axis:      draw.Foreground(p.Border),
		Label:     draw.Foreground(p.Muted),
		Providers: draw.Foregrounds(p.Providers),
	}
}

// provider is provider i's style.
func (s Styles) provider(i int) draw.Paint { return s.Providers[i%len(s.Providers)] }

// FrameMsg is the race up to Until: the providers (by index), the race
// track's finish line in per-user tokens (the Tokens plot's top) and the
// lanes' shared tok/s scale (the Speed plot's axis).
type FrameMsg struct {
	Until     time.Duration
	Providers []*live.Lane
	Finish    int
	Scale     live.Scale
	// Timeline is set in a race whose figure is a time (tool-call, json):
	// the Tokens plot shows it instead (a call's arguments are no text to
	// count; a json answer is a few tokens).
	Timeline *Timeline
}

// Model is the chart.
type Model struct {
	styles  Styles
	Plot    Plot
	PerUser bool // several streams per provider: the titles say "per user"

	names  []string
	width  int
	height int
	frame  FrameMsg
	lines  []string // as last rendered, height lines
	// scratch is the plot's memory, reused frame after frame, so a frame
	// makes no garbage of it; copies of the model share it, and each render
	// writes it before it reads it.
	scratch *scratch
}

// scratch is a frame's plot and its lines' points, one slice a provider.
type scratch struct {
	grid   draw.Braille
	points [][]draw.Point
}

// emptyPoints is an empty slice for provider i's points, with its memory.
func (s *scratch) emptyPoints(i int) []draw.Point {
	for len(s.points) <= i {
		s.points = append(s.points, nil)
	}
	return s.points[i][:0]
}

// New is a chart of these providers (in config order).
func New(names []string, styles Styles) Model {
	m := Model{styles: styles, names: names, scratch: &scratch{}}
	m.render()
	return m
}

// SetSize sets the chart's size: a title line, the plot, a time axis line.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.render()
}

// Toggle switches between the Tokens and the Speed plot.
func (m *Model) Toggle() {
	m.Plot = 1 - m.Plot
	m.render()
}

// Update handles FrameMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if msg, ok := msg.(FrameMsg); ok {
		m.frame = msg
		m.render()
	}
	return m, nil
}

// View is the chart as last rendered.
func (m Model) View() string { return strings.Join(m.lines, "\n") }

// Lines are the chart as last rendered, line by line: the dashboard lays
// them beside the leaderboard's twenty times a second, without joining
// them to split them again.
func (m Model) Lines() []string { return m.lines }

// tick is an axis label at a height (0..1).
type tick struct {
	at       float64
	text     string
	provider int // whose label it is (its style); axis ticks: -1
	// edge: its line ends in the plot's last column, its marker right
	// beside the labels, so the label takes that row before any other
	// (rowsOf): pushed a row away, it left its marker beside another
	// provider's label, which then read "◆ ▲ sim-gpu".
	edge bool
}

func (m *Model) render() {
	plotH := m.height - 2 // the title and the time axis
	if m.width < 20 || plotH < 2 {
		m.lines = blankLines(m.width, m.height)
		return
	}
	if m.frame.Timeline != nil && m.Plot == Tokens {
		m.lines = m.timelineLines()
		return
	}
	title, ticks, lines := m.tokensPlot()
	if m.Plot == Speed {
		title, ticks, lines = m.speedPlot()
	}

	tickW := 0
	for _, t := range ticks {
		tickW = max(tickW, draw.Width(t.text))
	}
	nameW := 0
	for _, l := range lines {
		nameW = max(nameW, draw.Width(m.names[l.Provider]))
	}
	labelW := min(nameW+3, (m.width-tickW-1)/3) // " ● name"
	plotW := m.width - tickW - 1 - labelW
	if plotW < 8 {
		m.lines = blankLines(m.width, m.height)
		return
	}

	g := &m.scratch.grid
	g.Reset(plotW, plotH)
	for _, l := range lines {
		g.Line(l)
		g.Mark(l.Points[len(l.Points)-1], l.Provider)
	}
	ends := make([]tick, 0, len(lines)) // each line's label, at the row it ends on
	for _, l := range lines {
		end := l.Points[len(l.Points)-1]
		// At the edge only while its own marker is there: two lines ending
		// in one cell show the last one's marker, which the other's name
		// beside it would take for its own.
		edge := g.Column(end) == plotW-1 && g.MarkedBy(end) == l.Provider
		ends = append(ends, tick{at: end.Y, text: string(draw.Marker(l.Provider)) + " " + format.Name(m.names[l.Provider], labelW-3), provider: l.Provider, edge: edge})
	}

	out := make([]string, 0, m.height)
	out = append(out, m.titleLine(title))
	tickRows := rowsOf(ticks, plotH)
	labelRows := rowsOf(ends, plotH)
	plot := g.Rows(m.styles.provider)
	for y := range plotH {
		var sb strings.Builder
		axis := "│"
		if t, ok := tickRows[y]; ok {
			sb.WriteString(m.styles.Label.Render(format.PadLeft(t.text, tickW)))
			axis = "┤"
		} else {
			sb.WriteString(strings.Repeat(" ", tickW))
		}
		sb.WriteString(m.styles.Axis.Render(axis))
		sb.WriteString(plot[y])
		label := ""
		if t, ok := labelRows[y]; ok {
			text := t.text
			if t.edge && rowOf(t.at, plotH) == y {
				// The line's end marker is the plot's last cell, just
				// left of the label: the name alone, not "◆ ◆ sim-gpu".
				text = format.Name(m.names[t.provider], labelW-1)
			}
			label = " " + format.Truncate(text, labelW-1, "…")
			label = m.styles.provider(t.provider).Render(label)
		}
		sb.WriteString(format.PadRight(label, labelW))
		out = append(out, sb.String())
	}
	out = append(out, m.timeAxis(tickW+1, plotW))
	m.lines = out
}

// blankLines are height lines of width spaces (one empty line at no
// height): a chart with no room to draw.
func blankLines(width, height int) []string {
	if height <= 0 {
		return []string{""}
	}
	lines := make([]string, height)
	for k := range lines {
		lines[k] = strings.Repeat(" ", max(width, 0))
	}
	return lines
}

// tokensPlot is the race: per-user tokens so far over time, up to the
// finish line.
func (m *Model) tokensPlot() (string, []tick, []draw.Line) {
	title := "tokens so far"
	if m.PerUser {
		title = "tokens per user"
	}
	top := float64(max(m.frame.Finish, 1))
	until := m.frame.Until
	var lines []draw.Line
	for i, p := range m.frame.Providers {
		times, tokens := p.TokenSeries(until)
		if len(times) == 0 {
			continue
		}
		l := draw.Line{Provider: i, Points: m.scratch.emptyPoints(i)}
		for k, t := range times {
			l.Points = append(l.Points, draw.Point{X: fraction(t, until), Y: min(tokens[k]/top, 1)})
		}
		m.scratch.points[i] = l.Points
		lines = append(lines, l)
	}
	ticks := []tick{{at: 0, text: "0", provider: -1}, {at: 0.5, text: format.Count(int(top / 2)), provider: -1}, {at: 1, text: format.Count(int(top)), provider: -1}}
	return title + " · steeper is faster", ticks, lines
}

// speedPlot is per-user live tok/s over time on the lanes' shared scale.
func (m *Model) speedPlot() (string, []tick, []draw.Line) {
	title := "live tok/s"
	if m.PerUser {
		title += " per user"
	}
	scale, until := m.frame.Scale, m.frame.Until
	var lines []draw.Line
	for i, p := range m.frame.Providers {
		end, settled, ok := p.End()
		if !ok {
			continue
		}
		series := p.Series(until)
		if settled {
			series = series[:min(len(series), int(end/live.SamplePeriod))]
		}
		l := draw.Line{Provider: i, Points: append(m.scratch.emptyPoints(i), draw.Point{X: 0, Y: 0})}
		for k, v := range series {
			l.Points = append(l.Points, draw.Point{X: fraction(live.SamplePeriod*time.Duration(k+1), until), Y: scale.Fraction(v)})
		}
		m.scratch.points[i] = l.Points
		lines = append(lines, l)
	}
	ticks := []tick{{at: 0, text: "0", provider: -1}, {at: 1, text: format.Short(scale.Top), provider: -1}}
	if scale.Log {
		title += " · log scale"
		ticks[0].text = format.Short(live.LogFloor)
		for v := 10.0; v < scale.Top; v *= 10 {
			ticks = append(ticks, tick{at: scale.Fraction(v), text: format.Short(v), provider: -1})
		}
	} else {
		ticks = append(ticks, tick{at: 0.5, text: format.Short(scale.Top / 2), provider: -1})
	}
	return title, ticks, lines
}

// titleLine is the plot's title, and at the right the key that shows the
// other plot, said as the footer says keys ("v shows tok/s").
func (m *Model) titleLine(title string) string {
	other := "v shows tok/s"
	if m.Plot == Speed {
		other = "v shows tokens"
	}
	t := " " + m.styles.Title.Render(format.Truncate(title, m.width-1, "…")) // apart from the pane beside it
	if gap := m.width - draw.Width(t) - len(other); gap >= 2 {
		return t + strings.Repeat(" ", gap) + m.styles.Label.Render(other)
	}
	return format.PadRight(t, m.width)
}

// timeAxis labels the start, middle and end of the time axis, which
// starts at column x0 and is width columns wide.
func (m *Model) timeAxis(x0, width int) string {
	until := m.frame.Until
	line := []rune(strings.Repeat(" ", m.width))
	put := func(at int, s string) {
		for k, r := range []rune(s) {
			if at+k >= 0 && at+k < len(line) {
				line[at+k] = r
			}
		}
	}
	put(x0, "0s")
	end := format.Duration(until)
	put(x0+width-len(end), end)
	if mid := format.Duration(until / 2); width > 2*len(end)+len(mid)+8 {
		put(x0+(width-len(mid))/2, mid)
	}
	return m.styles.Label.Render(string(line))
}

// rowsOf places labels on the rows of a plot rows high, each at the row
// of its height or, when taken, the nearest free one (those at the plot's
// edge first, then the highest), so no label hides another.
func rowsOf(ticks []tick, rows int) map[int]tick {
	sorted := slices.Clone(ticks)
	slices.SortStableFunc(sorted, func(a, b tick) int {
		if a.edge != b.edge {
			if a.edge {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.at, a.at)
	})
	placed := make(map[int]tick, len(ticks))
	free := func(r int) bool {
		_, taken := placed[r]
		return r >= 0 && r < rows && !taken
	}
	for _, t := range sorted {
		want := rowOf(t.at, rows)
		for d := 0; d < rows; d++ {
			if free(want + d) {
				placed[want+d] = t
				break
			}
			if free(want - d) {
				placed[want-d] = t
				break
			}
		}
	}
	return placed
}

// rowOf is the row (0 at the top) of height y (0..1) on a plot rows high:
// the row its braille dot falls in.
func rowOf(y float64, rows int) int {
	dots := rows * 4
	return (dots - 1 - int(math.Round(y*float64(dots-1)))) / 4
}

// fraction is t as a fraction of until, 0..1.
func fraction(t, until time.Duration) float64 {
	if until <= 0 {
		return 0
	}
	return min(max(float64(t)/float64(until), 0), 1)
}
