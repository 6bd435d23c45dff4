package picture

import "math"

// symbols draws the symbols the dashboard shows that Go Mono lacks, each
// in a square of the cell's width centred on the cell. Any other character
// Go Mono lacks (a provider's answer may hold any) is drawn as its
// "missing glyph" box.
var symbols = map[rune]func(w, h, lw float64) []polygon{
	'▶': func(w, h, _ float64) []polygon { return triangle(w, h, 0.8) },
	'▸': func(w, h, _ float64) []polygon { return triangle(w, h, 0.5) },
	'◆': func(w, h, _ float64) []polygon {
		cx, cy, r := w/2, h/2, w*0.45
		return []polygon{{{cx, cy - r}, {cx + r, cy}, {cx, cy + r}, {cx - r, cy}}}
	},
	'◉': func(w, h, lw float64) []polygon {
		r := w * 0.45
		return []polygon{circle(w/2, h/2, r, false), circle(w/2, h/2, r-lw, true), circle(w/2, h/2, r*0.5, false)}
	},
	'◌': func(w, h, lw float64) []polygon {
		var dots []polygon
		for k := range 8 {
			a := math.Pi / 4 * float64(k)
			x, y := w/2+w*0.38*math.Cos(a), h/2+w*0.38*math.Sin(a)
			dots = append(dots, rect(x-lw/2, y-lw/2, x+lw/2, y+lw/2))
		}
		return dots
	},
	'★': func(w, h, _ float64) []polygon {
		var star polygon
		for k := range 10 {
			r := w * 0.5
			if k%2 == 1 {
				r *= 0.4
			}
			a := -math.Pi/2 + math.Pi/5*float64(k)
			star = append(star, point{w/2 + r*math.Cos(a), h/2 + r*math.Sin(a)})
		}
		return []polygon{star}
	},
	'⏸': func(w, h, _ float64) []polygon {
		bar, top := math.Max(1, math.Round(w*0.22)), math.Round(h/2-w*0.4)
		return []polygon{rect(math.Round(w*0.18), top, math.Round(w*0.18)+bar, h-top), rect(w-math.Round(w*0.18)-bar, top, w-math.Round(w*0.18), h-top)}
	},
	'✓': func(w, h, lw float64) []polygon {
		s := w * 0.9
		a, b, c := point{w/2 - 0.42*s, h / 2}, point{w/2 - 0.12*s, h/2 + 0.32*s}, point{w/2 + 0.45*s, h/2 - 0.42*s}
		return []polygon{stroke(a, b, 1.6*lw), stroke(b, c, 1.6*lw)}
	},
	'✗': func(w, h, lw float64) []polygon {
		s := w * 0.38
		return []polygon{stroke(point{w/2 - s, h/2 - s}, point{w/2 + s, h/2 + s}, 1.6*lw), stroke(point{w/2 + s, h/2 - s}, point{w/2 - s, h/2 + s}, 1.6*lw)}
	},
	'✚': func(w, h, lw float64) []polygon {
		s, t := w*0.45, 1.5*lw
		return []polygon{rect(w/2-s, h/2-t, w/2+s, h/2+t), rect(w/2-t, h/2-s, w/2+t, h/2+s)}
	},
	'⚑': func(w, h, lw float64) []polygon {
		pole, top, flag := math.Round(w*0.2), math.Round(h/2-w*0.55), w*0.55
		return []polygon{rect(pole, top, pole+lw, math.Round(h/2+w*0.55)), rect(pole, top, w*0.85, top+flag)}
	},
	'⚙': func(w, h, lw float64) []polygon {
		cx, cy, r := w/2, h/2, w*0.3
		gear := []polygon{circle(cx, cy, r, false), circle(cx, cy, r*0.45, true)}
		for k := range 8 {
			a := math.Pi / 4 * float64(k)
			gear = append(gear, stroke(point{cx + r*0.8*math.Cos(a), cy + r*0.8*math.Sin(a)}, point{cx + w*0.47*math.Cos(a), cy + w*0.47*math.Sin(a)}, 1.5*lw))
		}
		return gear
	},
	'✂': func(w, h, lw float64) []polygon {
		r := w * 0.17
		left, top, bottom := w*0.22, h/2-w*0.28, h/2+w*0.28
		return []polygon{
			circle(left, top, r, false), circle(left, top, r-lw, true),
			circle(left, bottom, r, false), circle(left, bottom, r-lw, true),
			stroke(point{left + r*0.7, top + r*0.7}, point{w * 0.95, h/2 + w*0.2}, lw),
			stroke(point{left + r*0.7, bottom - r*0.7}, point{w * 0.95, h/2 - w*0.2}, lw),
		}
	},
}

// triangle is ▶ at size s of the cell's width.
func triangle(w, h, s float64) []polygon {
	r := w * s / 2
	return []polygon{{{w/2 - r, h/2 - r}, {w/2 + r, h / 2}, {w/2 - r, h/2 + r}}}
}

// circle is a circle's outline; hole: wound the other way, to cut it out.
func circle(cx, cy, r float64, hole bool) polygon {
	const steps = 24
	var c polygon
	for k := range steps {
		a := 2 * math.Pi * float64(k) / steps
		if hole {
			a = -a
		}
		c = append(c, point{cx + r*math.Cos(a), cy + r*math.Sin(a)})
	}
	return c
}
