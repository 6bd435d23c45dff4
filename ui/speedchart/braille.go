package speedchart

import (
	"math"
	"strings"

	"tpsrace/ui/internal/draw"
)

// grid is a plot of braille cells: each cell holds 2×4 dots and the
// provider whose line set its last dot, so a cell takes one colour. It is
// drawn here rather than with ntcharts' BrailleGrid, which holds one
// colour per grid and styles every cell on its own: a row is written as
// runs of one provider's cells, one style call per run.
type grid struct {
	w, h  int     // cells
	dots  []uint8 // braille dot bits, cell by cell, row by row
	owner []int   // provider of each cell, -1 for none
	marks []rune  // an end marker drawn instead of the dots, 0 for none
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, dots: make([]uint8, w*h), owner: make([]int, w*h), marks: make([]rune, w*h)}
	for k := range g.owner {
		g.owner[k] = -1
	}
	return g
}

// dotBits[x][y] is the bit of dot (x, y) in a braille cell (Unicode order).
var dotBits = [2][4]uint8{{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}

// dot maps a point to dot coordinates, y down from the top.
func (g *grid) dot(p point) (x, y int) {
	x = int(math.Round(p.x * float64(2*g.w-1)))
	y = 4*g.h - 1 - int(math.Round(p.y*float64(4*g.h-1)))
	return x, y
}

func (g *grid) set(x, y, provider int) {
	if x < 0 || y < 0 || x >= 2*g.w || y >= 4*g.h {
		return
	}
	k := y/4*g.w + x/2
	g.dots[k] |= dotBits[x%2][y%4]
	g.owner[k] = provider
}

// line draws l's segments dot by dot (Bresenham), dash[0] dots on in
// every dash[1] along the whole line.
func (g *grid) line(l line, dash [2]int) {
	step := 0
	for k := 1; k < len(l.points); k++ {
		x0, y0 := g.dot(l.points[k-1])
		x1, y1 := g.dot(l.points[k])
		dx, dy := abs(x1-x0), -abs(y1-y0)
		sx, sy := sign(x1-x0), sign(y1-y0)
		e := dx + dy
		for {
			if step%dash[1] < dash[0] {
				g.set(x0, y0, l.provider)
			}
			step++
			if x0 == x1 && y0 == y1 {
				break
			}
			e2 := 2 * e
			if e2 >= dy {
				e += dy
				x0 += sx
			}
			if e2 <= dx {
				e += dx
				y0 += sy
			}
		}
		step-- // the next segment starts on this one's last dot
	}
	if len(l.points) == 1 {
		x, y := g.dot(l.points[0])
		g.set(x, y, l.provider)
	}
}

// mark draws a marker in place of the dots of p's cell.
func (g *grid) mark(p point, r rune, provider int) {
	x, y := g.dot(p)
	k := y/4*g.w + x/2
	g.marks[k], g.owner[k] = r, provider
}

// writeRow writes row y, a run of cells of one provider at a time.
func (g *grid) writeRow(sb *strings.Builder, y int, paints []draw.Paint) {
	run := make([]rune, 0, g.w)
	owner := -1
	flush := func() {
		if len(run) == 0 {
			return
		}
		if owner < 0 {
			sb.WriteString(string(run))
		} else {
			sb.WriteString(paints[owner].Render(string(run)))
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
			r = 0x2800 + rune(g.dots[k])
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
}

func abs(n int) int { return max(n, -n) }

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}
