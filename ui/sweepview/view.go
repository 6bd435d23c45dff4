package sweepview

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/ui/internal/draw"
)

// Lines around the charts: the status line, the charts' titles, the
// legend, the key line.
const chrome = 4

// View is the sweep: status, the two charts, the levels' table, the verdict.
func (m Model) View() string {
	if m.width == 0 {
		return ""
	}
	if m.opts.Present {
		return m.presentView()
	}
	verdict := m.verdict()
	table := m.table(m.height - chrome - len(verdict) - minChart)
	parts := []string{m.status(), m.charts, m.legend()}
	parts = append(parts, table...)
	parts = append(parts, verdict...)
	parts = append(parts, m.styles.Label.Render("q quit"))
	return lipgloss.NewStyle().MaxWidth(m.width).MaxHeight(m.height).Render(strings.Join(parts, "\n"))
}

// minChart is the fewest rows a chart is drawn in.
const minChart = 8

// draw draws the charts at the window's size, sharing the height left by
// the table and the verdict.
func (m *Model) draw() {
	if m.width == 0 {
		return
	}
	if m.opts.Present {
		m.charts = m.presentChart()
		return
	}
	verdict := m.verdict()
	table := m.table(m.height - chrome - len(verdict) - minChart)
	h := max(m.height-chrome-len(verdict)-len(table), minChart)
	left := m.width * 3 / 5
	right := m.width - left - 1
	trade := chart(m.sweep, tradeOff(m.sweep), m.styles, left, h-1, format.Short)
	ttft := chart(m.sweep, queueing(m.sweep), m.styles, right, h-1, func(v float64) string {
		return strconv.Itoa(int(math.Round(math.Exp2(v))))
	})
	titles := format.PadRight(m.styles.Title.Render("per user tok/s ↑ · aggregate tok/s →"), left+1) +
		m.styles.Title.Render("TTFT p50 ms ↑ · users C →")
	m.charts = titles + "\n" + lipgloss.JoinHorizontal(lipgloss.Top, trade, " ", ttft)
}

// status is the first line: what is raced and where the climb is. Where
// the window is too narrow for it, it says the same in fewer words ("sweep
// C=1,2,4,8 · C=4 (3/4) 5/8 streams") rather than lose its end.
func (m Model) status() string {
	line := m.styles.Title.Render("tpsrace") + " "
	ps := m.opts.Config.Providers
	if banners := draw.SimulatedBanners(config.SimulatedCount(ps), len(ps)); banners != nil { // first, so that a narrow window never cuts it
		line += m.styles.Warn.Reverse(true).Render(banners[1]) + " " // the status line's room: the short words
	}
	text := m.statusText(false)
	if m.width > 0 && lipgloss.Width(line+text) > m.width {
		text = m.statusText(true)
	}
	return line + m.styles.Label.Render(text)
}

// statusText is the status's words, short or in full.
func (m Model) statusText(short bool) string {
	levels := make([]string, len(m.opts.Levels))
	for i, c := range m.opts.Levels {
		levels[i] = strconv.Itoa(c)
	}
	text := "concurrency sweep C=" + strings.Join(levels, ",")
	if short {
		text = "sweep C=" + strings.Join(levels, ",")
	}
	switch {
	case m.opts.Raced != nil:
		return text + " · replay"
	case m.finished:
		return text + " · done"
	case m.level.streams > 0 && short:
		return text + fmt.Sprintf(" · C=%d (%d/%d) %d/%d streams", m.level.concurrency, m.level.index+1, len(m.opts.Levels), m.done, m.level.streams)
	case m.level.streams > 0:
		return text + fmt.Sprintf(" · racing C=%d (%d of %d): %d/%d streams", m.level.concurrency, m.level.index+1, len(m.opts.Levels), m.done, m.level.streams)
	}
	return text + " · warming up"
}

// legend says what the markers mean.
func (m Model) legend() string {
	var names []string
	for i, c := range m.sweep.Curves {
		names = append(names, m.styles.provider(i).Render("● "+c.Name))
	}
	return strings.Join(names, "  ") + m.styles.Label.Render("   ◆ knee  ○ tpsrace saturated")
}

// verdict is the sweep verdict, wrapped to the width; while the sweep
// climbs, the verdict of the levels so far.
func (m Model) verdict() []string {
	if len(m.raced) == 0 {
		return nil
	}
	text := m.sweep.Verdict()
	if !m.finished {
		text = "so far: " + text
	}
	return strings.Split(ansi.Wordwrap(text, max(m.width, 20), ""), "\n")
}
