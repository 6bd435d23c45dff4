package lane

import "strings"

// A drawing is the lane as last rendered, line by line. A box's lines
// between its top and bottom borders are kept without their sides, which
// are written around them as the screen's rows are built (WriteLine): a
// streaming lane is drawn twenty times a second, and joining it into one
// string for the dashboard to split again cost a copy of every lane a
// frame.
type drawing struct {
	lines []string
	side  string // a box's side, around every line but the first and the last; "" for a strip or a bare lane
}

// sides is how many sides line k has: two inside a box, none on its
// borders or outside a box.
func (d drawing) sides(k int) int {
	if d.side == "" || k == 0 || k == len(d.lines)-1 {
		return 0
	}
	return 2
}

// Height is how many lines the lane draws.
func (m Model) Height() int { return len(m.drawn.lines) }

// LineLen is the length in bytes of line k as WriteLine writes it (0 past
// the last), to size the row it goes in.
func (m Model) LineLen(k int) int {
	d := m.drawn
	if k < 0 || k >= len(d.lines) {
		return 0
	}
	return len(d.lines[k]) + d.sides(k)*len(d.side)
}

// WriteLine writes line k of the lane (nothing past the last) to sb.
func (m Model) WriteLine(sb *strings.Builder, k int) {
	d := m.drawn
	if k < 0 || k >= len(d.lines) {
		return
	}
	if d.sides(k) == 0 {
		sb.WriteString(d.lines[k])
		return
	}
	sb.WriteString(d.side)
	sb.WriteString(d.lines[k])
	sb.WriteString(d.side)
}

// View is the lane as last rendered.
func (m Model) View() string {
	size := 0
	for k := range m.drawn.lines {
		size += m.LineLen(k) + 1
	}
	var sb strings.Builder
	sb.Grow(size)
	for k := range m.drawn.lines {
		if k > 0 {
			sb.WriteByte('\n')
		}
		m.WriteLine(&sb, k)
	}
	return sb.String()
}

// drawnEdge is a border as drawn, and what it was drawn from.
type drawnEdge struct {
	key  edgeKey
	line string
}

type edgeKey struct {
	status, flags string
	width         int
	focused       bool
}
