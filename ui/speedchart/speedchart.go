// Package speedchart compares every provider's live tok/s over the race in
// one chart: time since release runs left to right (the whole race always
// fills the width), per-user live tok/s (metrics.LiveTPS) up from zero on a
// linear axis, one line per provider in its colour, with a legend above.
//
//	c := speedchart.New(names, speedchart.DefaultStyles(p))
//	c.SetSize(64, 11)
//	c, _ = c.Update(speedchart.FrameMsg{Until: now, Series: series})
//	fmt.Println(c.View())
package speedchart

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/NimbleMarkets/ntcharts/canvas/runes"
	"github.com/NimbleMarkets/ntcharts/linechart/streamlinechart"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/ui/format"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

// Styles of the chart.
type Styles struct {
	Title    lipgloss.Style
	Axis     lipgloss.Style
	Label    lipgloss.Style
	Provider func(i int) lipgloss.Style
}

// DefaultStyles are built from palette p.
func DefaultStyles(p theme.Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	return Styles{
		Title:    fg(p.Muted).Bold(true),
		Axis:     fg(p.Border),
		Label:    fg(p.Muted),
		Provider: func(i int) lipgloss.Style { return fg(p.ProviderColor(i)) },
	}
}

// FrameMsg is the race up to Until: each provider's per-user live tok/s,
// one sample every live.SamplePeriod from the release (by provider index).
type FrameMsg struct {
	Until  time.Duration
	Series [][]float64
}

// Model is the chart.
type Model struct {
	Styles Styles
	Title  string // before the legend; "live tok/s" by default

	names  []string
	width  int
	height int
	frame  FrameMsg
	chart  streamlinechart.Model // kept while its size and range stay
	top    float64               // its range's top
	view   string
}

// New is a chart of these providers (in config order).
func New(names []string, styles Styles) Model {
	m := Model{Styles: styles, Title: "live tok/s", names: names}
	m.render()
	return m
}

// SetSize sets the chart's size: a legend line, the plot, a time axis line.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
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
func (m Model) View() string { return m.view }

func (m *Model) render() {
	legend := m.legend()
	plotH := m.height - 1 - len(legend)
	if m.width < 20 || plotH < 3 {
		m.view = strings.TrimSuffix(strings.Repeat(strings.Repeat(" ", max(m.width, 0))+"\n", max(m.height, 0)), "\n")
		return
	}
	peak := 0.0
	for _, s := range m.frame.Series {
		for _, v := range s {
			peak = max(peak, v)
		}
	}
	// ntcharts puts 0 on the bottom row and the top of the range on the top
	// row, a label every 2 rows. The top is chosen so those labels are
	// round, and they are written from the row itself (ntcharts' own
	// labels assume one more row than the data is drawn on).
	rows := float64(plotH - 1)
	top := niceCeil(peak/(rows/2)) * rows / 2
	if top != m.top || m.chart.Width() != m.width || m.chart.Height() != plotH {
		m.chart = streamlinechart.New(m.width, plotH,
			streamlinechart.WithYRange(0, top),
			streamlinechart.WithAxesStyles(m.Styles.Axis, m.Styles.Label))
		m.chart.YLabelFormatter = func(row int, _ float64) string { return format.Short(top * float64(row) / rows) }
		m.chart.Resize(m.width, plotH)
		m.top = top
	}
	chart := &m.chart
	chart.ClearAllData()
	graphW := chart.GraphWidth()
	// Drawn last is drawn on top: the lowest lines, so a provider that has
	// finished (at zero) never hides one still streaming slowly.
	peaks := make([]float64, len(m.frame.Series))
	order := make([]int, len(m.frame.Series))
	for i, s := range m.frame.Series {
		order[i] = i
		for _, v := range s {
			peaks[i] = max(peaks[i], v)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(peaks[b], peaks[a]) })
	var names []string
	for _, i := range order {
		name := strconv.Itoa(i)
		style := runes.ArcLineStyle
		if i%2 == 1 {
			style = runes.ThinLineStyle
		}
		chart.SetDataSetStyles(name, style, m.Styles.Provider(i))
		for _, v := range live.Resample(m.frame.Series[i], graphW) {
			chart.PushDataSet(name, v)
		}
		names = append(names, name)
	}
	chart.DrawDataSets(names)

	lines := append(legend, strings.Split(draw.Canvas(&chart.Canvas), "\n")...)
	lines = append(lines, m.timeAxis(chart.Origin().X+1, graphW))
	for k := range lines {
		lines[k] = format.PadRight(ansi.Truncate(lines[k], m.width, "…"), m.width)
	}
	m.view = strings.Join(lines, "\n")
}

// legend is "live tok/s  ━ name  ━ name …" on one line, or two when the
// names do not fit on one.
func (m *Model) legend() []string {
	lines := []string{m.Styles.Title.Render(m.Title)}
	for i, n := range m.names {
		entry := m.Styles.Provider(i).Render("━ " + n)
		last := &lines[len(lines)-1]
		if ansi.StringWidth(*last)+2+ansi.StringWidth(entry) > m.width && len(lines) < 2 {
			lines = append(lines, entry)
			continue
		}
		*last += "  " + entry
	}
	return lines
}

// timeAxis labels the start, middle and end of the time axis, which
// starts at column x0 and is width columns wide.
func (m *Model) timeAxis(x0, width int) string {
	until := m.frame.Until
	line := []rune(strings.Repeat(" ", x0+width))
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
	return m.Styles.Label.Render(string(line))
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten (at least 1), so
// the axis labels are round.
func niceCeil(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}
