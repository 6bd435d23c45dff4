package speedchart

import (
	"slices"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"

	"tpsrace/ui/internal/draw"
)

// grid is the plot: ntcharts' braille grid (2×4 dots a cell, its point
// mapping and its line points), with the provider whose line set a cell's
// last dot, so each cell takes one colour, and the end markers.
//
// It stops short of ntcharts' canvas, which every ntcharts chart draws
// through: canvas.View renders each cell with its own lipgloss style, and
// a canvas holds one 560-byte style per cell, so a frame of the chart took
// several times the budget of the whole dashboard's frame
// (BenchmarkChartCanvas against BenchmarkChartGrid, docs/BENCHMARKS.md).
// Here a row is written as runs of one provider's cells, one
// concatenation per run (draw.Paint).
type grid struct {
	w, h    int // cells
	braille *graph.BrailleGrid
	owner   []int  // provider of each cell, -1 for none
	marks   []rune // an end marker drawn instead of the dots, 0 for none
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, braille: graph.NewBrailleGrid(w, h, 0, 1, 0, 1), owner: make([]int, w*h), marks: make([]rune, w*h)}
	for k := range g.owner {
		g.owner[k] = -1
	}
	return g
}

// dot is the dot of a point (both 0..1): x right, y down from the top.
func (g *grid) dot(p point) canvas.Point {
	return g.braille.GridPoint(canvas.Float64Point{X: p.x, Y: p.y})
}

// cell is the index of the cell holding dot d, or -1 outside the plot.
func (g *grid) cell(d canvas.Point) int {
	if d.X < 0 || d.Y < 0 || d.X >= 2*g.w || d.Y >= 4*g.h {
		return -1
	}
	return d.Y/4*g.w + d.X/2
}

// line draws l's segments dot by dot, dash[0] dots on in every dash[1]
// along the whole line.
func (g *grid) line(l line, dash [2]int) {
	set := func(d canvas.Point) {
		if k := g.cell(d); k >= 0 {
			g.braille.Set(d)
			g.owner[k] = l.provider
		}
	}
	if len(l.points) == 1 {
		set(g.dot(l.points[0]))
		return
	}
	step := 0
	for k := 1; k < len(l.points); k++ {
		from, to := g.dot(l.points[k-1]), g.dot(l.points[k])
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

// mark draws a marker in place of the dots of p's cell.
func (g *grid) mark(p point, r rune, provider int) {
	if k := g.cell(g.dot(p)); k >= 0 {
		g.marks[k], g.owner[k] = r, provider
	}
}

// rows are the plot's lines, each a run of cells of one provider at a time.
func (g *grid) rows(style func(provider int) draw.Paint) []string {
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
