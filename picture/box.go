package picture

import (
	"math"
	"strings"
)

// boxArms is each box-drawing character's four arms, up right down left:
// 0 none, 1 light, 2 heavy, 3 double; in code point order from U+2500,
// "-" where the character is drawn otherwise (dashes, arcs, diagonals).
var boxArms = strings.Fields(`
0101 0202 1010 2020 - - - - - - - - 0110 0210 0120 0220
0011 0012 0021 0022 1100 1200 2100 2200 1001 1002 2001 2002 1110 1210 2110 1120
2120 2210 1220 2220 1011 1012 2011 1021 2021 2012 1022 2022 0111 0112 0211 0212
0121 0122 0221 0222 1101 1102 1201 1202 2101 2102 2201 2202 1111 1112 1211 1212
2111 1121 2121 2112 2211 1122 1221 2212 1222 2122 2221 2222 - - - -
0303 3030 0310 0130 0330 0013 0031 0033 1300 3100 3300 1003 3001 3003 1310 3130
3330 1013 3031 3033 0313 0131 0333 1303 3101 3303 1313 3131 3333 - - -
- - - - 0001 1000 0100 0010 0002 2000 0200 0020 0201 1020 0102 2010`)

// dashes is the dashed lines: how many dashes, and whether they run down.
var dashes = map[rune]struct {
	n        int
	vertical bool
	heavy    bool
}{
	0x2504: {3, false, false}, 0x2505: {3, false, true}, 0x2506: {3, true, false}, 0x2507: {3, true, true},
	0x2508: {4, false, false}, 0x2509: {4, false, true}, 0x250a: {4, true, false}, 0x250b: {4, true, true},
	0x254c: {2, false, false}, 0x254d: {2, false, true}, 0x254e: {2, true, false}, 0x254f: {2, true, true},
}

// boxShape is a box-drawing character: arms from the cell's edges that
// meet at its centre, so neighbouring cells' lines join without a gap.
func boxShape(r rune, w, h, lw float64) []polygon {
	if d, ok := dashes[r]; ok {
		t := lw
		if d.heavy {
			t = 2 * lw
		}
		return dashShape(d.n, d.vertical, t, w, h)
	}
	switch {
	case r >= 0x256d && r <= 0x2570:
		return arcShape(r, w, h, lw)
	case r >= 0x2571 && r <= 0x2573:
		return diagonalShape(r, w, h, lw)
	}
	arms := []byte(boxArms[r-0x2500])
	var polys []polygon
	// A line straight across is one rectangle (a run of ─ is one in an SVG).
	if arms[0] == '0' && arms[2] == '0' && arms[1] == arms[3] {
		polys = append(polys, acrossShape(false, int(arms[1]-'0'), w, h, lw)...)
		arms[1], arms[3] = '0', '0'
	}
	if arms[1] == '0' && arms[3] == '0' && arms[0] == arms[2] && arms[0] != '0' {
		polys = append(polys, acrossShape(true, int(arms[0]-'0'), w, h, lw)...)
		arms[0], arms[2] = '0', '0'
	}
	for i, weight := range arms {
		if weight != '0' {
			polys = append(polys, armShape(i, int(weight-'0'), w, h, lw)...)
		}
	}
	return polys
}

// weightOf is a line's thickness and its strokes' offsets from the middle.
func weightOf(weight int, lw float64) (t float64, offsets []float64) {
	switch weight {
	case 2:
		return 2 * lw, []float64{0}
	case 3:
		return lw, []float64{-lw, lw}
	}
	return lw, []float64{0}
}

// acrossShape is a line from edge to edge through the middle.
func acrossShape(vertical bool, weight int, w, h, lw float64) []polygon {
	t, offsets := weightOf(weight, lw)
	var polys []polygon
	for _, off := range offsets {
		if vertical {
			x0 := math.Round((w-t)/2 + off)
			polys = append(polys, rect(x0, 0, x0+t, h))
		} else {
			y0 := math.Round((h-t)/2 + off)
			polys = append(polys, rect(0, y0, w, y0+t))
		}
	}
	return polys
}

// armShape is arm i (0 up, 1 right, 2 down, 3 left) of the given weight:
// it runs from the edge across the centre to the far side of a line there.
func armShape(i, weight int, w, h, lw float64) []polygon {
	t, offsets := weightOf(weight, lw)
	var polys []polygon
	for _, off := range offsets {
		x0 := math.Round((w-t)/2 + off)
		y0 := math.Round((h-t)/2 + off)
		// The far side reaches the outer edge of a double line.
		reach := max(t, 2*lw)
		switch i {
		case 0:
			polys = append(polys, rect(x0, 0, x0+t, math.Round((h+reach)/2)))
		case 1:
			polys = append(polys, rect(math.Round((w-reach)/2), y0, w, y0+t))
		case 2:
			polys = append(polys, rect(x0, math.Round((h-reach)/2), x0+t, h))
		case 3:
			polys = append(polys, rect(0, y0, math.Round((w+reach)/2), y0+t))
		}
	}
	return polys
}

// dashShape is n dashes along the cell's middle, each half of its share.
func dashShape(n int, vertical bool, t, w, h float64) []polygon {
	var polys []polygon
	length := w
	if vertical {
		length = h
	}
	step := length / float64(n)
	for k := range n {
		a, b := math.Round(step*float64(k)+step/4), math.Round(step*float64(k)+step*3/4)
		if vertical {
			x0 := math.Round((w - t) / 2)
			polys = append(polys, rect(x0, a, x0+t, b))
		} else {
			y0 := math.Round((h - t) / 2)
			polys = append(polys, rect(a, y0, b, y0+t))
		}
	}
	return polys
}

// arcShape is a rounded corner ╭ ╮ ╯ ╰: a quarter circle between the
// middles of two edges, joined to them by straight lines.
func arcShape(r rune, w, h, lw float64) []polygon {
	x0, y0 := math.Round((w-lw)/2), math.Round((h-lw)/2)
	cx, cy := x0+lw/2, y0+lw/2 // the lines' centres
	radius := min(w, h) / 2
	// sx, sy: towards which edges the corner opens (right, down for ╭).
	sx, sy := map[rune]float64{0x256d: 1, 0x256e: -1, 0x256f: -1, 0x2570: 1}[r], map[rune]float64{0x256d: 1, 0x256e: 1, 0x256f: -1, 0x2570: -1}[r]
	ox, oy := cx+sx*radius, cy+sy*radius // the circle's centre
	var outer, inner polygon
	const steps = 6
	for k := 0; k <= steps; k++ {
		a := math.Pi / 2 * float64(k) / steps
		dx, dy := -sx*math.Cos(a), -sy*math.Sin(a)
		outer = append(outer, point{ox + dx*(radius+lw/2), oy + dy*(radius+lw/2)})
		inner = append(inner, point{ox + dx*(radius-lw/2), oy + dy*(radius-lw/2)})
	}
	band := outer
	for k := len(inner) - 1; k >= 0; k-- {
		band = append(band, inner[k])
	}
	polys := []polygon{band}
	// Straight on to the edges: along y from the arc's end, along x from its start.
	if sy > 0 {
		polys = append(polys, rect(x0, math.Min(oy, h), x0+lw, h))
	} else {
		polys = append(polys, rect(x0, 0, x0+lw, math.Max(oy, 0)))
	}
	if sx > 0 {
		polys = append(polys, rect(math.Min(ox, w), y0, w, y0+lw))
	} else {
		polys = append(polys, rect(0, y0, math.Max(ox, 0), y0+lw))
	}
	return polys
}

// diagonalShape is ╱, ╲ or both (╳): corner to corner.
func diagonalShape(r rune, w, h, lw float64) []polygon {
	line := func(ax, ay, bx, by float64) polygon { return stroke(point{ax, ay}, point{bx, by}, lw) }
	switch r {
	case 0x2571:
		return []polygon{line(0, h, w, 0)}
	case 0x2572:
		return []polygon{line(0, 0, w, h)}
	}
	return []polygon{line(0, h, w, 0), line(0, 0, w, h)}
}

// stroke is the segment a–b drawn t wide.
func stroke(a, b point, t float64) polygon {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return nil
	}
	nx, ny := -dy/n*t/2, dx/n*t/2
	p := polygon{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}}
	if p.area() < 0 { // every solid outline winds one way, so strokes that overlap add up instead of cancelling
		p[1], p[3] = p[3], p[1]
	}
	return p
}

// area is the polygon's signed area: positive when it winds clockwise on
// the screen (y down), as rect does; a hole's is negative.
func (p polygon) area() float64 {
	var a float64
	for i, q := range p {
		n := p[(i+1)%len(p)]
		a += q.X*n.Y - n.X*q.Y
	}
	return a / 2
}
