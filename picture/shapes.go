package picture

import (
	"math"
	"slices"
)

// The glyphs a font draws badly, or not at all, are drawn from their code
// points instead, as polygons on the cell: box drawing (a pane's border, a
// chart's axes) meets its neighbours' lines exactly at any cell size, block
// elements (bars, sparklines) fill their eighths exactly, braille (the
// charts) keeps its 2×4 dots on the grid, and the few symbols the
// dashboard draws that Go Mono lacks (▶ ✓ ✗ ⚑ …) have one look in the GIF
// and the SVG, whatever fonts the viewer has. The GIF rasterises these
// polygons and the SVG writes them as paths, so both draw the same shapes.

// point is a position in a cell, in the picture's units: (0,0) the cell's
// top left, (w,h) its bottom right.
type point struct{ X, Y float64 }

// polygon is a closed outline; a hole winds the other way.
type polygon []point

// part is polygons filled at one coverage (1: solid; the shades ░▒▓ less).
type part struct {
	polys []polygon
	alpha float64
}

// drawn says whether r is drawn as a shape rather than from the font.
func drawn(r rune) bool {
	switch {
	case r >= 0x2500 && r <= 0x257f, r >= 0x2580 && r <= 0x259f, r >= 0x2800 && r <= 0x28ff:
		return true
	}
	_, ok := symbols[r]
	return ok
}

// shapeOf is r's shape in a cell w×h, lw the width of a light line.
func shapeOf(r rune, w, h, lw float64) []part {
	parts := partsOf(r, w, h, lw)
	for i, p := range parts { // a straight piece of no length (an arc's, in a small cell)
		parts[i].polys = slices.DeleteFunc(p.polys, func(q polygon) bool { return math.Abs(q.area()) < 1e-9 })
	}
	return parts
}

func partsOf(r rune, w, h, lw float64) []part {
	switch {
	case r >= 0x2500 && r <= 0x257f:
		return []part{{polys: boxShape(r, w, h, lw), alpha: 1}}
	case r >= 0x2580 && r <= 0x259f:
		return blockShape(r, w, h)
	case r >= 0x2800 && r <= 0x28ff:
		return []part{{polys: brailleShape(r, w, h), alpha: 1}}
	}
	if sym, ok := symbols[r]; ok {
		return []part{{polys: sym(w, h, lw), alpha: 1}}
	}
	return nil
}

// rect is the rectangle from (x0,y0) to (x1,y1).
func rect(x0, y0, x1, y1 float64) polygon {
	return polygon{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

// blockShape is a block element: eighths, halves, quadrants, shades.
func blockShape(r rune, w, h float64) []part {
	eighthY := func(n int) float64 { return math.Round(h * float64(n) / 8) }
	eighthX := func(n int) float64 { return math.Round(w * float64(n) / 8) }
	solid := func(p ...polygon) []part { return []part{{polys: p, alpha: 1}} }
	mx, my := math.Round(w/2), math.Round(h/2)
	quad := map[rune]string{0x2596: "l", 0x2597: "r", 0x2598: "L", 0x2599: "Llr", 0x259a: "Lr", 0x259b: "LRl",
		0x259c: "LRr", 0x259d: "R", 0x259e: "Rl", 0x259f: "Rlr"} // L R upper, l r lower
	switch {
	case r == 0x2580:
		return solid(rect(0, 0, w, my))
	case r >= 0x2581 && r <= 0x2588:
		return solid(rect(0, h-eighthY(int(r-0x2580)), w, h))
	case r >= 0x2589 && r <= 0x258f:
		return solid(rect(0, 0, eighthX(int(0x2590-r)), h))
	case r == 0x2590:
		return solid(rect(mx, 0, w, h))
	case r >= 0x2591 && r <= 0x2593:
		return []part{{polys: []polygon{rect(0, 0, w, h)}, alpha: float64(r-0x2590) / 4}}
	case r == 0x2594:
		return solid(rect(0, 0, w, eighthY(1)))
	case r == 0x2595:
		return solid(rect(w-eighthX(1), 0, w, h))
	}
	var polys []polygon
	for _, q := range quad[r] {
		x0, x1, y0, y1 := 0.0, mx, 0.0, my
		if q == 'R' || q == 'r' {
			x0, x1 = mx, w
		}
		if q == 'l' || q == 'r' {
			y0, y1 = my, h
		}
		polys = append(polys, rect(x0, y0, x1, y1))
	}
	return solid(polys...)
}

// brailleShape is a braille pattern's raised dots, square, on a 2×4 grid
// (bit i of the offset from U+2800 is dot i+1).
func brailleShape(r rune, w, h float64) []polygon {
	bits := int(r - 0x2800)
	cols, rows := []int{0, 0, 0, 1, 1, 1, 0, 1}, []int{0, 1, 2, 0, 1, 2, 3, 3}
	sw, sh := w/2, h/4
	d := max(1, math.Round(min(sw, sh)*0.72))
	var dots []polygon
	for i := range 8 {
		if bits&(1<<i) == 0 {
			continue
		}
		x := math.Round(sw*float64(cols[i]) + (sw-d)/2)
		y := math.Round(sh*float64(rows[i]) + (sh-d)/2)
		dots = append(dots, rect(x, y, x+d, y+d))
	}
	return dots
}
