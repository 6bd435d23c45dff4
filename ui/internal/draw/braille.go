package draw

import (
	"math"
	"slices"
	"strings"
)

// brailleBlank is the empty braille pattern; a cell's dots are its bits.
const brailleBlank = '\u2800'

// Braille is a chart's plot: a grid of braille cells (2×4 dots a cell),
// with the provider whose line set a cell's last dot, so each cell takes
// one colour, and markers. The speed chart and the workload panel's chart
// draw with it, so a provider's line has the same dash pattern and marker
// in both (Dash, Marker).
//
// It maps points to dots and draws segments dot by dot as ntcharts'
// braille grid does (graph.BrailleGrid.GridPoint, graph.GetLinePoints;
// braille_test.go holds them to it), without their garbage: ntcharts makes
// its dot grid anew on every Clear and a slice for every segment, and the
// speed chart draws every provider's whole line each frame (a third of a
// frame's allocations). A Braille is reused, frame after frame (Reset).
// It stops short of ntcharts' canvas, which every ntcharts chart draws
// through: canvas.View renders each cell with its own lipgloss style, and
// a canvas holds one 560-byte style per cell, so a frame of the chart took
// several times the budget of the whole dashboard's frame
// (BenchmarkChartCanvas against BenchmarkChartGrid, docs/BENCHMARKS-HISTORY.md,
// "Charts: ntcharts").
// Here a row is written as runs of one provider's cells, one
// concatenation per run (Paint).
type Braille struct {
	w, h  int     // cells
	dots  []uint8 // each cell's dots, as the bits of its braille pattern
	owner []int   // provider of each cell, -1 for none
	marks []rune  // an end marker drawn instead of the dots, 0 for none
	line  []dot   // a segment's dots, reused
}

// Point is a point of a plot: X left to right, Y bottom to top, both 0..1.
type Point struct{ X, Y float64 }

// Line is one provider's line.
type Line struct {
	Provider int
	Points   []Point
}

// dot is a dot of the grid: x right, y down from the top.
type dot struct{ x, y int }

// Dash patterns and markers, by provider: lines differ without colour.
var (
	dashes  = [][2]int{{1, 1}, {3, 4}, {1, 2}, {6, 8}} // {dots on, period} along the line
	markers = []rune("●■▲◆★✚▼◉")
)

// Dash is provider i's dash pattern: {dots on, period} along its line.
func Dash(i int) [2]int { return dashes[i%len(dashes)] }

// Marker is provider i's marker.
func Marker(i int) rune { return markers[i%len(markers)] }

// NewBraille is an empty plot of w × h cells.
func NewBraille(w, h int) *Braille {
	g := &Braille{}
	g.Reset(w, h)
	return g
}

// Reset empties the plot and sizes it w × h cells, keeping its memory.
func (g *Braille) Reset(w, h int) {
	g.w, g.h = max(w, 0), max(h, 0)
	n := g.w * g.h
	g.dots, g.owner, g.marks = resize(g.dots, n), resize(g.owner, n), resize(g.marks, n)
	clear(g.dots)
	clear(g.marks)
	for k := range g.owner {
		g.owner[k] = -1
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// dot is the dot of a point, rounded to the nearest as ntcharts' GridPoint
// rounds it.
func (g *Braille) dot(p Point) dot {
	dw, dh := 2*g.w-1, 4*g.h-1
	return dot{int(math.Round(p.X * float64(dw))), dh - int(math.Round(p.Y*float64(dh)))}
}

// cell is the index of the cell holding dot d, or -1 outside the plot.
func (g *Braille) cell(d dot) int {
	if d.x < 0 || d.y < 0 || d.x >= 2*g.w || d.y >= 4*g.h {
		return -1
	}
	return d.y/4*g.w + d.x/2
}

// brailleBits are the pattern bits of the dots of a cell, by [row][column].
var brailleBits = [4][2]uint8{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// Line draws l's segments dot by dot in its provider's dash pattern,
// dash[0] dots on in every dash[1] along the whole line.
func (g *Braille) Line(l Line) {
	dash := Dash(l.Provider)
	set := func(d dot) {
		if k := g.cell(d); k >= 0 {
			g.dots[k] |= brailleBits[d.y%4][d.x%2]
			g.owner[k] = l.Provider
		}
	}
	if len(l.Points) == 1 {
		set(g.dot(l.Points[0]))
		return
	}
	step := 0
	for k := 1; k < len(l.Points); k++ {
		from, to := g.dot(l.Points[k-1]), g.dot(l.Points[k])
		if from == to && k > 1 {
			continue // a segment within one dot: nothing to draw, nothing to count
		}
		g.line = segment(g.line[:0], from, to)
		dots := g.line
		if dots[0] != from { // the segment is walked by x or y, not from its start
			slices.Reverse(dots)
		}
		if k > 1 {
			dots = dots[1:] // the previous segment drew this one's first dot
		}
		for _, d := range dots {
			if step%dash[1] < dash[0] {
				set(d)
			}
			step++
		}
	}
}

// segment appends the dots of the segment from a to b to dots, as
// Bresenham's line walks it and ntcharts' graph.GetLinePoints returns
// them: along x from the lower x where the segment is flatter than 45°,
// along y from the lower y otherwise.
func segment(dots []dot, a, b dot) []dot {
	abs := func(v int) int { return max(v, -v) }
	flat := abs(b.y-a.y) < abs(b.x-a.x)
	if flat && a.x > b.x || !flat && a.y > b.y {
		a, b = b, a
	}
	// Walk the major axis (u) one dot a step and the minor (v) when the error says so.
	u0, u1, v, du, dv := a.x, b.x, a.y, b.x-a.x, b.y-a.y
	if !flat {
		u0, u1, v, du, dv = a.y, b.y, a.x, b.y-a.y, b.x-a.x
	}
	vi := 1
	if dv < 0 {
		vi, dv = -1, -dv
	}
	d := 2*dv - du
	for u := u0; u <= u1; u++ {
		if flat {
			dots = append(dots, dot{u, v})
		} else {
			dots = append(dots, dot{v, u})
		}
		if d > 0 {
			v += vi
			d += 2 * (dv - du)
		} else {
			d += 2 * dv
		}
	}
	return dots
}

// Mark draws provider's marker in place of the dots of p's cell.
func (g *Braille) Mark(p Point, provider int) {
	if k := g.cell(g.dot(p)); k >= 0 {
		g.marks[k], g.owner[k] = Marker(provider), provider
	}
}

// MarkedBy is the provider whose marker the cell of p holds (the last
// marked there), -1 for none.
func (g *Braille) MarkedBy(p Point) int {
	if k := g.cell(g.dot(p)); k >= 0 && g.marks[k] != 0 {
		return g.owner[k]
	}
	return -1
}

// Column is the column of the cell that Mark puts p's marker in.
func (g *Braille) Column(p Point) int { return g.dot(p).x / 2 }

// Rows are the plot's lines, each a run of cells of one provider at a time.
func (g *Braille) Rows(style func(provider int) Paint) []string {
	out := make([]string, g.h)
	run := make([]rune, 0, g.w)
	var sb strings.Builder
	for y := range g.h {
		sb.Reset()
		owner := -1
		flush := func() {
			if len(run) == 0 {
				return
			}
			if owner < 0 {
				sb.WriteString(string(run))
			} else {
				sb.WriteString(style(owner).Render(string(run)))
			}
			run = run[:0]
		}
		for x := range g.w {
			k := y*g.w + x
			r := ' '
			switch {
			case g.marks[k] != 0:
				r = g.marks[k]
			case g.dots[k] != 0:
				r = brailleBlank + rune(g.dots[k])
			}
			o := g.owner[k]
			if r == ' ' {
				o = -1
			}
			if o != owner {
				flush()
				owner = o
			}
			run = append(run, r)
		}
		flush()
		out[y] = sb.String()
	}
	return out
}
