package picture

import (
	"fmt"
	"math"
	"strings"
)

// ink is what a row's shapes of one colour are filled with.
type ink struct {
	fg    uint16
	alpha float64
}

// shapes is a piece's drawn cells as paths, one a colour and coverage, in
// the order the colours first appear. Rectangles that continue one another
// along the row (a border's ─ ─ ─) become one.
func (s *svgWriter) shapes(cells []cell) string {
	l := s.l
	var order []ink
	rects := map[ink][][4]float64{}
	polys := map[ink][]polygon{}
	var b strings.Builder
	for i := 0; i < len(cells); i++ {
		c := cells[i]
		if !drawnCell(c) {
			continue
		}
		if n := s.dashedRun(&b, cells[i:], i); n > 0 {
			i += n - 1
			continue
		}
		x0 := float64(i * l.cellW)
		r := []rune(c.text)[0]
		for _, p := range shapeOf(r, float64(l.cellW*int(max(c.width, 1))), float64(l.cellH), l.lineW) {
			k := ink{c.fg, p.alpha}
			if _, ok := rects[k]; !ok {
				order = append(order, k)
				rects[k] = nil
			}
			for _, poly := range p.polys {
				if box, ok := asRect(poly); ok {
					rects[k] = appendRect(rects[k], [4]float64{box[0] + x0, box[1], box[2] + x0, box[3]})
					continue
				}
				moved := make(polygon, len(poly))
				for j, q := range poly {
					moved[j] = point{q.X + x0, q.Y}
				}
				polys[k] = append(polys[k], moved)
			}
		}
	}
	for _, k := range order {
		fmt.Fprintf(&b, `<path class="c%d"`, k.fg)
		if k.alpha < 1 {
			fmt.Fprintf(&b, ` fill-opacity="%s"`, num(k.alpha))
		}
		b.WriteString(` d="`)
		var from point // each outline starts from the last one's start (relative moves are shorter)
		for j, r := range rects[k] {
			move, w := moveTo(j == 0, from, point{r[0], r[1]}), num(r[2]-r[0])
			fmt.Fprintf(&b, "%sh%sv%sh-%sz", move, w, num(r[3]-r[1]), w)
			from = point{r[0], r[1]}
		}
		for j, p := range polys[k] {
			b.WriteString(moveTo(j == 0 && len(rects[k]) == 0, from, p[0]))
			for _, q := range p[1:] {
				fmt.Fprintf(&b, "L%s %s", num(q.X), num(q.Y))
			}
			b.WriteByte('z')
			from = p[0]
		}
		b.WriteString(`"/>`)
	}
	return b.String()
}

// asRect is the polygon's box when it is rect's rectangle.
func asRect(p polygon) ([4]float64, bool) {
	if len(p) != 4 || p[0].Y != p[1].Y || p[1].X != p[2].X || p[2].Y != p[3].Y || p[3].X != p[0].X || p[1].X < p[0].X || p[2].Y < p[1].Y {
		return [4]float64{}, false
	}
	return [4]float64{p[0].X, p[0].Y, p[2].X, p[2].Y}, true
}

// appendRect adds r, joined to the last rectangle when it continues it.
func appendRect(rs [][4]float64, r [4]float64) [][4]float64 {
	if n := len(rs); n > 0 && rs[n-1][1] == r[1] && rs[n-1][3] == r[3] && rs[n-1][2] == r[0] {
		rs[n-1][2] = r[2]
		return rs
	}
	return append(rs, r)
}

// moveTo starts an outline at to: absolute first, then relative to from.
func moveTo(first bool, from, to point) string {
	if first {
		return "M" + num(to.X) + " " + num(to.Y)
	}
	return "m" + num(to.X-from.X) + " " + num(to.Y-from.Y)
}

// dashedRun writes a run of one horizontal dashed line (┈┈┈, the reading
// speed's line) as one stroked line whose dash pattern puts each dash where
// dashShape puts it, a cell's dashes otherwise costing an outline each; it
// returns how many cells the run covers (0: cells[0] is not such a line).
func (s *svgWriter) dashedRun(b *strings.Builder, cells []cell, col int) int {
	r := []rune(cells[0].text)[0]
	d, ok := dashes[r]
	if !ok || d.vertical {
		return 0
	}
	n := 1
	for n < len(cells) && cells[n].text == cells[0].text && cells[n].fg == cells[0].fg {
		n++
	}
	l := s.l
	t := l.lineW
	if d.heavy {
		t *= 2
	}
	step := float64(l.cellW) / float64(d.n)
	c := s.f.colors[cells[0].fg]
	fmt.Fprintf(b, `<path d="M%d %sh%d" stroke="#%02x%02x%02x" stroke-width="%s" stroke-dasharray="%s" stroke-dashoffset="%s"/>`,
		col*l.cellW, num(math.Round((float64(l.cellH)-t)/2)+t/2), n*l.cellW, c.R, c.G, c.B, num(t), num(step/2), num(step*3/4))
	return n
}
