package workloadview

import (
	"strings"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
)

// column is a column of the panel's table: a header and a cell a provider.
type column struct {
	header string
	cells  []string
	left   bool                           // aligned left (names); figures align right
	paint  func(row int, s string) string // nil: a figure ("-" as a label)
}

// colGap is the space between columns.
const colGap = 2

func (c column) width() int {
	w := draw.Width(c.header)
	for _, s := range c.cells {
		w = max(w, draw.Width(s))
	}
	return w
}

// tableWidth is the width of the columns side by side.
func tableWidth(cols []column) int {
	w := 0
	for _, c := range cols {
		w += c.width() + colGap
	}
	return max(w-colGap, 0)
}

// fitColumns drops whole columns from the end until the table is at most
// width wide; the first (the names) stays.
func fitColumns(cols []column, width int) []column {
	for len(cols) > 1 && tableWidth(cols) > width {
		cols = cols[:len(cols)-1]
	}
	return cols
}

// table is the header line and a line per provider.
func (m *Model) table(cols []column) []string {
	widths := make([]int, len(cols))
	for k, c := range cols {
		widths[k] = c.width()
	}
	pad := func(c column, s string, w int) string {
		if c.left {
			return format.PadRight(s, w)
		}
		return format.PadLeft(s, w)
	}
	gap := strings.Repeat(" ", colGap)
	var header strings.Builder
	for k, c := range cols {
		if k > 0 {
			header.WriteString(gap)
		}
		header.WriteString(pad(c, m.styles.Label.Render(c.header), widths[k]))
	}
	lines := []string{header.String()}
	for row := range m.figures.Providers {
		var sb strings.Builder
		for k, c := range cols {
			if k > 0 {
				sb.WriteString(gap)
			}
			s := ""
			if row < len(c.cells) {
				s = c.cells[row]
			}
			switch {
			case c.paint != nil:
				s = c.paint(row, s)
			case s == format.Undefined:
				s = m.styles.Label.Render(s)
			default:
				s = m.styles.Figure.Render(s)
			}
			sb.WriteString(pad(c, s, widths[k]))
		}
		lines = append(lines, sb.String())
	}
	return lines
}
