package draw

import (
	"slices"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"
)

// Braille is a chart's plot: ntcharts' braille grid (2×4 dots a cell, its
// point mapping and its line points), with the provider whose line set a
// cell's last dot, so each cell takes one colour, and markers. The speed
// chart and the workload panel's chart draw with it, so a provider's line
// has the same dash pattern and marker in both (Dash, Marker).
//
// It stops short of ntcharts' canvas, which every ntcharts chart draws
// through: canvas.View renders each cell with its own lipgloss style, and
// a canvas holds one 560-byte style per cell, so a frame of the chart took
// several times the budget of the whole dashboard's frame
// (BenchmarkChartCanvas against BenchmarkChartGrid, docs/BENCHMARKS.md).
// Here a row is written as runs of one provider's cells, one
// concatenation per run (Paint).
type Braille struct {
	w, h    int // cells
	braille *graph.BrailleGrid
	owner   []int  // provider of each cell, -1 for none
	marks   []rune // an end marker drawn instead of the dots, 0 for none
}

// Point is a point of a plot: X left to right, Y bottom to top, both 0..1.
type Point struct{ X, Y float64 }

// Line is one provider's line.
type Line struct {
	Provider int
	Points   []Point
}

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
	g := &Braille{w: w, h: h, braille: graph.NewBrailleGrid(w, h, 0, 1, 0, 1), owner: make([]int, w*h), marks: make([]rune, w*h)}
	for k := range g.owner {
		g.owner[k] = -1
	}
	return g
}

// dot is the dot of a point: x right, y down from the top.
func (g *Braille) dot(p Point) canvas.Point {
	return g.braille.GridPoint(canvas.Float64Point{X: p.X, Y: p.Y})
}

// cell is the index of the cell holding dot d, or -1 outside the plot.
func (g *Braille) cell(d canvas.Point) int {
	if d.X < 0 || d.Y < 0 || d.X >= 2*g.w || d.Y >= 4*g.h {
		return -1
	}
	return d.Y/4*g.w + d.X/2
}

// Line draws l's segments dot by dot in its provider's dash pattern,
// dash[0] dots on in every dash[1] along the whole line.
func (g *Braille) Line(l Line) {
	dash := Dash(l.Provider)
	set := func(d canvas.Point) {
		if k := g.cell(d); k >= 0 {
			g.braille.Set(d)
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
		dots := graph.GetLinePoints(from, to)
		if dots[0] != from { // GetLinePoints orders a segment by x or y, not from its start
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

// Mark draws provider's marker in place of the dots of p's cell.
func (g *Braille) Mark(p Point, provider int) {
	if k := g.cell(g.dot(p)); k >= 0 {
		g.marks[k], g.owner[k] = Marker(provider), provider
	}
}

// Rows are the plot's lines, each a run of cells of one provider at a time.
func (g *Braille) Rows(style func(provider int) Paint) []string {
	patterns := g.braille.BraillePatterns()
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
			case patterns[y][x] != runes.BrailleBlockOffset:
				r = patterns[y][x]
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
