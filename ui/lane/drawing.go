package lane

import (
	"strings"

	"tpsrace/ui/internal/draw"
)

// A drawing is the lane as last rendered, line by line. A box's lines
// between its top and bottom borders are kept without their sides, which
// are written around them as the screen's rows are built (WriteLine): a
// streaming lane is drawn twenty times a second, and joining it into one
// string for the dashboard to split again cost a copy of every lane a
// frame.
//
// A box's lines are padded to its width as they are written, from the
// spaces each one lacks (pads), not copied with their spaces each frame.
type drawing struct {
	lines []string
	pads  []int  // the spaces after each line; nil for a strip or a bare lane, padded already
	side  string // a box's side, around every line but the first and the last; "" for a strip or a bare lane
}

// boxDrawing is a box of body lines under top and over bottom, each body
// line cut or padded to width and the body to height.
func boxDrawing(top string, body []string, width, height int, bottom, side string) drawing {
	d := drawing{lines: make([]string, 0, height+2), pads: make([]int, height+2), side: side}
	d.lines = append(d.lines, top)
	for k := range height {
		line, pad := "", width
		if k < len(body) {
			line, pad = draw.Cut(body[k], width)
		}
		d.lines = append(d.lines, line)
		d.pads[k+1] = pad
	}
	d.lines = append(d.lines, bottom)
	return d
}

// pad is the spaces written after line k.
func (d drawing) pad(k int) int {
	if k < len(d.pads) {
		return d.pads[k]
	}
	return 0
}

// sides is how many sides line k has: two inside a box, none on its
// borders or outside a box.
func (d drawing) sides(k int) int {
	if d.side == "" || k == 0 || k == len(d.lines)-1 {
		return 0
	}
	return 2
}

// Height is how many lines the lane draws. Height, LineLen and WriteLine
// take a pointer: the screen asks them of every lane for each of its
// lines, and a Model is some 3.7 KB to copy for each call.
func (m *Model) Height() int { return len(m.drawn.lines) }

// LineLen is the length in bytes of line k as WriteLine writes it (0 past
// the last), to size the row it goes in.
func (m *Model) LineLen(k int) int {
	d := &m.drawn
	if k < 0 || k >= len(d.lines) {
		return 0
	}
	return len(d.lines[k]) + d.pad(k) + d.sides(k)*len(d.side)
}

// WriteLine writes line k of the lane (nothing past the last) to sb.
func (m *Model) WriteLine(sb *strings.Builder, k int) {
	d := &m.drawn
	if k < 0 || k >= len(d.lines) {
		return
	}
	sides := d.sides(k) > 0
	if sides {
		sb.WriteString(d.side)
	}
	sb.WriteString(d.lines[k])
	sb.WriteString(draw.Pad(d.pad(k)))
	if sides {
		sb.WriteString(d.side)
	}
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
