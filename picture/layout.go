package picture

import (
	"fmt"
	"math"
)

// layout is where the cells lie in the picture, in pixels.
type layout struct {
	cellW, cellH int // one cell
	x, y         int // the grid's top left corner
	fontPx       float64
	baseline     int     // from a cell's top
	lineW        float64 // a light box-drawing line
}

// The grid keeps a margin of marginShare of the picture's shorter side.
// Go Mono's advance is 0.6 of its size: a cell is that wide, and between
// 1.9 and 2.2 times as tall (a terminal's 1.15 to 1.3 line height), as tall
// as the picture allows. Cells are whole pixels, so lines and blocks stay
// crisp in a GIF; the grid is centred.
const (
	marginShare = 0.02
	advance     = 0.6
	minTall     = 1.9
	maxTall     = 2.2
)

// layoutOf fits o's cells in o's picture.
func layoutOf(o Options) (layout, error) {
	margin := int(math.Round(marginShare * float64(min(o.Width, o.Height))))
	w, h := float64(o.Width-2*margin), float64(o.Height-2*margin)
	cellW := int(math.Min(w/float64(o.Cols), h/float64(o.Rows)/minTall))
	if cellW < 4 {
		return layout{}, fmt.Errorf("%dx%d cells do not fit in %dx%d pixels (a cell would be %d pixels wide; want 4 or more)",
			o.Cols, o.Rows, o.Width, o.Height, cellW)
	}
	cellH := min(int(h)/o.Rows, int(math.Round(maxTall*float64(cellW))))
	l := layout{cellW: cellW, cellH: cellH, fontPx: float64(cellW) / advance}
	l.x, l.y = (o.Width-cellW*o.Cols)/2, (o.Height-cellH*o.Rows)/2
	// Go Mono's ascent and descent are 0.93 and 0.21 of its size: the text
	// is centred in the cell's height.
	l.baseline = int(math.Round((float64(cellH)-1.14*l.fontPx)/2 + 0.93*l.fontPx))
	l.lineW = math.Max(1, math.Round(float64(cellW)/8))
	return l, nil
}
