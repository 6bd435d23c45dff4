package picture

import (
	"cmp"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"io"
	"math"
	"slices"
)

// WriteGIF writes the film as an animated GIF that loops: one frame a
// scene, each only the rectangle of cells that changed since the scene
// before (drawn over it), its delay the scene's length in hundredths of a
// second. The palette is the film's own colours (the theme's, as the
// dashboard drew them) and, for each text colour on each background, the
// blends its glyphs' edges need.
func (f *Film) WriteGIF(w io.Writer) error {
	if len(f.scenes) == 0 {
		return errors.New("gif: the film has no frames")
	}
	l, err := layoutOf(f.o)
	if err != nil {
		return err
	}
	g, err := newGlyphs(l)
	if err != nil {
		return err
	}
	pal := f.palette()
	canvas := image.NewPaletted(image.Rect(0, 0, f.o.Width, f.o.Height), pal.colors) // all background: index 0
	shown := slices.Clone(canvas.Pix)                                                // the picture as the frames so far leave it
	out := &gif.GIF{Config: image.Config{ColorModel: pal.colors, Width: f.o.Width, Height: f.o.Height}}
	var before []cell
	for i, s := range f.scenes {
		dirty := f.paint(canvas, g, pal, before, s.cells)
		if i == 0 {
			dirty = canvas.Rect // the first frame is the whole picture
		}
		if dirty.Empty() {
			dirty = image.Rect(0, 0, 1, 1)
		}
		out.Image = append(out.Image, changes(canvas, shown, dirty, pal.clear, i == 0))
		out.Delay = append(out.Delay, f.centis(s.start+s.samples)-f.centis(s.start))
		out.Disposal = append(out.Disposal, gif.DisposalNone)
		before = s.cells
	}
	return gif.EncodeAll(w, out)
}

// changes is the frame that turns shown into canvas within dirty: a pixel
// that stays as it was is transparent (clear), which an encoder packs into
// long runs, where a redrawn one would cost as much as a changed one.
func changes(canvas *image.Paletted, shown []uint8, dirty image.Rectangle, clear uint8, whole bool) *image.Paletted {
	frame := image.NewPaletted(dirty, canvas.Palette)
	for y := dirty.Min.Y; y < dirty.Max.Y; y++ {
		from, to := canvas.PixOffset(dirty.Min.X, y), canvas.PixOffset(dirty.Max.X, y)
		row := frame.Pix[frame.PixOffset(dirty.Min.X, y):]
		for x, px := range canvas.Pix[from:to] {
			if !whole && shown[from+x] == px {
				px = clear
			}
			row[x] = px
		}
		copy(shown[from:to], canvas.Pix[from:to])
	}
	return frame
}

// centis is sample k's time in hundredths of a second (a GIF's clock),
// rounded, so rounding never adds up over a long film.
func (f *Film) centis(k int) int { return int(math.Round(float64(k) * 100 / float64(f.o.FPS))) }

// paint draws the cells of after that differ from before on the canvas
// and returns the rectangle it changed.
func (f *Film) paint(canvas *image.Paletted, g *glyphs, pal *palette, before, after []cell) image.Rectangle {
	l := g.l
	var dirty image.Rectangle
	for i, c := range after {
		if before != nil && before[i] == c || c.width == 0 && c.text == "" {
			continue
		}
		x0, y0 := l.x+(i%f.o.Cols)*l.cellW, l.y+(i/f.o.Cols)*l.cellH
		m, lut := g.mask(c), pal.lut(c.fg, c.bg)
		w := l.cellW * int(max(c.width, 1))
		w = min(w, canvas.Rect.Dx()-x0)
		mw := l.cellW * int(max(c.width, 1))
		for y := range l.cellH {
			row := canvas.Pix[canvas.PixOffset(x0, y0+y):]
			for x := range w {
				row[x] = lut[m[y*mw+x]]
			}
		}
		dirty = dirty.Union(image.Rect(x0, y0, x0+w, y0+l.cellH))
	}
	return dirty
}

// palette is a GIF's colours: the film's, then the blends of each text
// colour into its background; a blend that does not fit in 255 is drawn
// with the nearest colour that does; the 256th is transparent.
type palette struct {
	colors color.Palette // the last is transparent: clear
	clear  uint8
	luts   map[[2]uint16][coverageLevels]uint8
}

// palette collects the film's colour pairs, most used first.
func (f *Film) palette() *palette {
	uses := map[[2]uint16]int{} // text cells a pair; a blank cell's pair counts 0: only its background shows
	for _, s := range f.scenes {
		for _, c := range s.cells {
			pair, n := [2]uint16{c.fg, c.bg}, 0
			if !c.blank() {
				n = 1
			}
			uses[pair] += n
		}
	}
	pairs := make([][2]uint16, 0, len(uses))
	for p := range uses {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b [2]uint16) int {
		return cmp.Or(cmp.Compare(uses[b], uses[a]), cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	p := &palette{luts: map[[2]uint16][coverageLevels]uint8{}}
	index := map[color.RGBA]int{}
	add := func(c color.RGBA) {
		if _, ok := index[c]; !ok && len(p.colors) < 255 {
			index[c] = len(p.colors)
			p.colors = append(p.colors, c)
		}
	}
	for _, c := range f.colors[:min(len(f.colors), 255)] { // the background first: index 0
		add(c)
	}
	for _, pair := range pairs {
		for k := 1; k < coverageLevels-1 && uses[pair] > 0; k++ {
			add(f.blendOf(pair, k))
		}
	}
	for _, pair := range pairs {
		var lut [coverageLevels]uint8
		for k := range coverageLevels {
			c := f.blendOf(pair, k)
			i, ok := index[c]
			if !ok {
				i = p.colors.Index(c)
			}
			lut[k] = uint8(i)
		}
		p.luts[pair] = lut
	}
	p.clear = uint8(len(p.colors)) // after the lookups above, so no colour maps to it
	p.colors = append(p.colors, color.RGBA{})
	return p
}

// blendOf is the colour of a pixel at coverage level k of a pair (fg, bg).
func (f *Film) blendOf(pair [2]uint16, k int) color.RGBA {
	return blend(f.colors[pair[0]], f.colors[pair[1]], float64(k)/(coverageLevels-1))
}

// lut is the palette indexes of a pair's coverage levels.
func (p *palette) lut(fg, bg uint16) [coverageLevels]uint8 { return p.luts[[2]uint16{fg, bg}] }
