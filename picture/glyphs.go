package picture

import (
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// coverageLevels is how finely a GIF's glyph edges are shaded: coverage
// 0 (background) to coverageLevels-1 (the text's colour). Five levels
// smooth the edges and keep each colour pair to three blends, so a
// dashboard's colours fit a GIF's 256.
const coverageLevels = 5

// glyphKey is what a cell's mask depends on.
type glyphKey struct {
	text  string
	width uint8
	attrs attrs
}

// glyphs rasterises cells' masks for one layout, once each: Go Mono for
// text (regular, bold, italic, both), shapes for what shapeOf draws.
type glyphs struct {
	l     layout
	faces [4]font.Face // by attrs&(bold|italic)
	masks map[glyphKey][]uint8
}

func newGlyphs(l layout) (*glyphs, error) {
	g := &glyphs{l: l, masks: map[glyphKey][]uint8{}}
	for i, ttf := range [][]byte{gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil, err
		}
		g.faces[i], err = opentype.NewFace(f, &opentype.FaceOptions{Size: l.fontPx, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
	}
	return g, nil
}

// mask is c's coverage, a level a pixel, cellW×width wide and cellH tall,
// row by row.
func (g *glyphs) mask(c cell) []uint8 {
	k := glyphKey{c.text, max(c.width, 1), c.attrs}
	if m, ok := g.masks[k]; ok {
		return m
	}
	w, h := g.l.cellW*int(k.width), g.l.cellH
	alpha := image.NewAlpha(image.Rect(0, 0, w, h))
	if r := []rune(c.text); len(r) == 1 && drawn(r[0]) {
		g.drawShape(alpha, r[0])
	} else if !c.blank() {
		d := font.Drawer{Dst: alpha, Src: image.Opaque, Face: g.faces[c.attrs&(bold|italic)], Dot: fixed.P(0, g.l.baseline)}
		d.DrawString(c.text)
	}
	if c.attrs&underline != 0 {
		y := min(g.l.baseline+max(1, h/12), h-1)
		draw.Draw(alpha, image.Rect(0, y, w, y+int(g.l.lineW)), image.Opaque, image.Point{}, draw.Src)
	}
	m := make([]uint8, w*h)
	for i, a := range alpha.Pix {
		m[i] = uint8((int(a)*(coverageLevels-1) + 127) / 255)
	}
	g.masks[k] = m
	return m
}

// drawShape rasterises r's shape into a cell's mask.
func (g *glyphs) drawShape(dst *image.Alpha, r rune) {
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	for _, p := range shapeOf(r, float64(w), float64(h), g.l.lineW) {
		z := vector.NewRasterizer(w, h)
		for _, poly := range p.polys {
			if len(poly) < 3 {
				continue
			}
			z.MoveTo(float32(poly[0].X), float32(poly[0].Y))
			for _, q := range poly[1:] {
				z.LineTo(float32(q.X), float32(q.Y))
			}
			z.ClosePath()
		}
		z.Draw(dst, dst.Rect, image.NewUniform(color.Alpha{uint8(p.alpha*255 + 0.5)}), image.Point{})
	}
}
