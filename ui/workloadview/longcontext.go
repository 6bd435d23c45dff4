package workloadview

import (
	"slices"
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
)

// minChartWidth is the narrowest TTFT-by-size chart, its axis labels included.
const minChartWidth = 24

// longContext is the title, the table (prefill estimate, the server's
// prompt speed, TTFT by size) and, beside it where there is room, the
// chart of TTFT by size.
func (m *Model) longContext() []string {
	f := m.figures
	title := m.title("size "+itoa(f.Step)+"/"+itoa(f.Steps), itoa(f.InputTokens)+" tokens", "TTFT by input size")
	sizes := m.sizes()
	cols := []column{m.names(20), m.prefill()}
	if server, ok := m.serverPrompt(); ok {
		cols = append(cols, server)
	}
	for _, size := range sizes {
		cols = append(cols, m.sizeTTFT(size))
	}
	plotRows := m.height - 2 // below the title, above the size axis
	essential := tableWidth(fitColumns(cols, 0)) + colGap + minChartWidth
	if plotRows < 2 || len(sizes) == 0 || m.width < essential {
		return append([]string{title}, m.table(fitColumns(cols, m.width))...)
	}
	cols = fitColumns(cols, max(m.width-colGap-minChartWidth, m.width*3/5))
	tableW := tableWidth(cols)
	chart := m.chart(sizes, m.width-tableW-colGap, plotRows)
	table := draw.Fit(m.table(cols), tableW, m.height-1)
	lines := []string{title}
	for k := range table {
		lines = append(lines, table[k]+strings.Repeat(" ", colGap)+chart[k])
	}
	return lines
}

// sizes are the input sizes some provider has a TTFT for, smallest first.
func (m *Model) sizes() []int {
	var sizes []int
	for _, p := range m.figures.Providers {
		for _, s := range p.BySize {
			sizes = append(sizes, s.InputTokens)
		}
	}
	slices.Sort(sizes)
	return slices.Compact(sizes)
}

// prefill is the prefill estimate column: "≈ 12,000 tok/s"; without one,
// why (metrics.NoPrefill, a label as "-" is): "- 1 size", "- flat", "- noisy".
func (m *Model) prefill() column {
	c := column{header: "prefill"}
	providers := m.figures.Providers
	for _, p := range providers {
		cell := figure("≈ "+format.TPS(p.All.PrefillTPS)+" tok/s", p.All.HasPrefillTPS)
		if p.All.NoPrefill != "" {
			cell = format.Undefined + " " + string(p.All.NoPrefill)
		}
		c.cells = append(c.cells, cell)
	}
	c.paint = func(i int, s string) string {
		if providers[i].All.HasPrefillTPS {
			return m.styles.Figure.Render(s)
		}
		return m.styles.Label.Render(s)
	}
	return c
}

// serverPrompt is the server's own prompt speed (llama.cpp's
// prompt_per_second); ok is false when no provider reported one.
func (m *Model) serverPrompt() (column, bool) {
	c := column{header: "server prompt"}
	ok := false
	for _, p := range m.figures.Providers {
		d := p.All.ServerPromptTPS
		ok = ok || d.Has()
		c.cells = append(c.cells, figure(format.TPS(d.P50)+" tok/s", d.Has()))
	}
	return c, ok
}

// sizeTTFT is the TTFT of one input size, a provider each.
func (m *Model) sizeTTFT(size int) column {
	c := column{header: itoa(size) + " tok"}
	for _, p := range m.figures.Providers {
		cell := format.Undefined
		for _, s := range p.BySize {
			if s.InputTokens == size {
				cell = ttft(s.TTFT)
			}
		}
		c.cells = append(c.cells, cell)
	}
	return c
}

// chart is TTFT (median) against input tokens, from 0, width × rows+1
// lines: a line per provider through its sizes, a marker at each, and the
// size axis below.
func (m *Model) chart(sizes []int, width, rows int) []string {
	var top time.Duration
	for _, p := range m.figures.Providers {
		for _, s := range p.BySize {
			if s.TTFT.Has() {
				top = max(top, s.TTFT.P50)
			}
		}
	}
	top = max(top, time.Millisecond)
	ticks := []string{format.Duration(top), "0"}
	tickW := max(draw.Width(ticks[0]), draw.Width(ticks[1]))
	plotW := width - tickW - 1
	right := float64(sizes[len(sizes)-1])
	g := draw.NewBraille(plotW, rows)
	for i, p := range m.figures.Providers {
		l := draw.Line{Provider: i}
		for _, s := range p.BySize {
			if s.TTFT.Has() {
				l.Points = append(l.Points, draw.Point{X: float64(s.InputTokens) / right, Y: s.TTFT.P50.Seconds() / top.Seconds()})
			}
		}
		if len(l.Points) == 0 {
			continue
		}
		g.Line(l)
		for _, pt := range l.Points {
			g.Mark(pt, i)
		}
	}
	plot := g.Rows(m.styles.provider)
	lines := make([]string, 0, rows+1)
	for y, row := range plot {
		tick, axis := strings.Repeat(" ", tickW), "│"
		switch y {
		case 0:
			tick, axis = format.PadLeft(ticks[0], tickW), "┤"
		case rows - 1:
			tick, axis = format.PadLeft(ticks[1], tickW), "┤"
		}
		lines = append(lines, m.styles.Label.Render(tick)+m.styles.Axis.Render(axis)+row)
	}
	return append(lines, m.styles.Label.Render(strings.Repeat(" ", tickW+1)+sizeAxis(sizes, plotW)))
}

// sizeAxis labels each size at its place on an axis width columns wide
// (0 at the left, the largest size at the right), in tokens ("8k"); a
// label that would touch the one before it is left out, and the largest
// is always shown.
func sizeAxis(sizes []int, width int) string {
	line := []rune(strings.Repeat(" ", width))
	right := float64(sizes[len(sizes)-1])
	end := -1 // the column after the last label put
	put := func(size, at int) {
		label := []rune(format.Short(float64(size)))
		at = min(max(at-len(label)/2, 0), width-len(label))
		if at <= end {
			return
		}
		copy(line[at:], label)
		end = at + len(label)
	}
	last := []rune(format.Short(right))
	limit := width - len(last) - 1 // room left for the smaller sizes' labels
	for _, size := range sizes[:len(sizes)-1] {
		at := int(float64(size) / right * float64(width-1))
		if at+len([]rune(format.Short(float64(size))))/2 < limit {
			put(size, at)
		}
	}
	put(int(right), width-1)
	return string(line)
}

func itoa(n int) string { return format.Count(n) }
