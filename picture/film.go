// Package picture turns the frames of a dashboard replay into an animated
// picture for slides and READMEs, with no browser or external program: a
// GIF (image/gif) or an SVG (CSS keyframes, which GitHub plays).
//
//	film, err := picture.NewFilm(picture.Options{Cols: 120, Rows: 40, Width: 1280, Height: 720, FPS: 10,
//		Background: bg, Foreground: fg})
//	film.Add(0, view)        // each frame's ANSI text, in time order
//	film.End(13 * time.Second)
//	film.WriteGIF(w)         // or film.WriteSVG(w); ExampleFilm runs this
//
// Each frame's text goes through a terminal-cell model (charmbracelet's
// cellbuf, the cell buffer lipgloss's own family renders with, at the
// version this module already builds with): SGR colours and attributes
// become cells on the Cols×Rows grid, laid out by the same width rules the
// dashboard was laid out by. The film samples the frames at FPS and merges
// samples that show the same cells into one scene, so a still stretch of
// the race costs one frame.
package picture

import (
	"fmt"
	"image/color"
	"slices"
	"time"

	"github.com/charmbracelet/x/cellbuf"
)

// Options say what a picture shows and how big it is.
type Options struct {
	Cols, Rows    int // the terminal the frames were drawn for, in cells
	Width, Height int // the picture, in pixels; the cells fill it, centred
	FPS           int // samples a second, 1 to MaxFPS
	// Background is behind every cell that has no colour of its own (and the
	// margin), Foreground the text that has none.
	Background, Foreground color.Color
}

// MaxFPS is the dashboard's own frame rate: a faster picture would only
// repeat its frames.
const MaxFPS = 20

// Check says what is wrong with o, before any work.
func (o Options) Check() error {
	switch {
	case o.Cols < 1 || o.Rows < 1:
		return fmt.Errorf("the terminal has no cells (%dx%d)", o.Cols, o.Rows)
	case o.FPS < 1 || o.FPS > MaxFPS:
		return fmt.Errorf("%d frames a second: want 1 to %d (the dashboard draws %d)", o.FPS, MaxFPS, MaxFPS)
	case o.Background == nil || o.Foreground == nil:
		return fmt.Errorf("no background or foreground colour")
	}
	if _, err := layoutOf(o); err != nil {
		return err
	}
	return nil
}

// attrs are a cell's text attributes.
type attrs uint8

const (
	bold attrs = 1 << iota
	italic
	underline
)

// cell is one terminal cell: its grapheme ("" for the right half of a wide
// one), how many cells it covers, its colours (indexes into Film.colors).
type cell struct {
	text   string
	width  uint8
	fg, bg uint16
	attrs  attrs
}

// blank is whether the cell shows nothing but its background.
func (c cell) blank() bool { return c.text == " " || c.text == "" }

// scene is one screen of the film and the samples it lasts.
type scene struct {
	cells          []cell
	start, samples int
}

// Film is the scenes of a replay, sampled at FPS.
type Film struct {
	o       Options
	colors  []color.RGBA // 0: the background, 1: the foreground
	index   map[color.RGBA]uint16
	scenes  []scene
	showing []cell // the screen now, shown from sample next on
	next    int
	buf     *cellbuf.Buffer
}

// NewFilm is an empty film; o must pass Check.
func NewFilm(o Options) (*Film, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	f := &Film{o: o, index: map[color.RGBA]uint16{}, buf: cellbuf.NewBuffer(o.Cols, o.Rows)}
	f.color(o.Background)
	f.color(o.Foreground)
	return f, nil
}

// sampleAt is when sample k is taken.
func (f *Film) sampleAt(k int) time.Duration {
	return time.Duration(k) * time.Second / time.Duration(f.o.FPS)
}

// Add shows view (a frame's ANSI text) from at on; frames come in time order.
func (f *Film) Add(at time.Duration, view string) {
	f.sampleUntil(at)
	f.showing = f.cellsOf(view)
}

// End ends the film at at: the last frame is shown until then.
func (f *Film) End(at time.Duration) { f.sampleUntil(at) }

// Length is the film's running time.
func (f *Film) Length() time.Duration { return f.sampleAt(f.next) }

// Scenes is how many distinct screens the film shows in turn.
func (f *Film) Scenes() int { return len(f.scenes) }

// sampleUntil takes the samples before at, of the screen showing now.
func (f *Film) sampleUntil(at time.Duration) {
	for ; f.showing != nil && f.sampleAt(f.next) < at; f.next++ {
		if n := len(f.scenes); n > 0 && slices.Equal(f.scenes[n-1].cells, f.showing) {
			f.scenes[n-1].samples++
			continue
		}
		f.scenes = append(f.scenes, scene{cells: f.showing, start: f.next, samples: 1})
	}
}

// cellsOf is view on the terminal's grid.
func (f *Film) cellsOf(view string) []cell {
	cellbuf.SetContent(f.buf, view)
	cells := make([]cell, 0, f.o.Cols*f.o.Rows)
	for y := range f.o.Rows {
		for x := range f.o.Cols {
			c := f.buf.Cell(x, y)
			if c == nil {
				cells = append(cells, cell{text: " ", width: 1, fg: 1})
				continue
			}
			cells = append(cells, f.cellOf(c))
		}
	}
	return cells
}

// cellOf is a cellbuf cell with its colours resolved: reverse video
// swapped, faint text halfway to its background, concealed text gone.
func (f *Film) cellOf(c *cellbuf.Cell) cell {
	fg, bg := f.o.Foreground, f.o.Background
	if c.Style.Fg != nil {
		fg = c.Style.Fg
	}
	if c.Style.Bg != nil {
		bg = c.Style.Bg
	}
	a := c.Style.Attrs
	if a.Contains(cellbuf.ReverseAttr) {
		fg, bg = bg, fg
	}
	if a.Contains(cellbuf.FaintAttr) {
		fg = blend(rgba(fg), rgba(bg), 0.5)
	}
	out := cell{text: c.String(), width: uint8(max(c.Width, 0)), fg: f.color(fg), bg: f.color(bg)}
	if out.text == "" && c.Width > 0 || a.Contains(cellbuf.ConcealAttr) {
		out.text = " "
	}
	if a.Contains(cellbuf.BoldAttr) {
		out.attrs |= bold
	}
	if a.Contains(cellbuf.ItalicAttr) {
		out.attrs |= italic
	}
	if c.Style.UlStyle != cellbuf.NoUnderline {
		out.attrs |= underline
	}
	return out
}

// color is c's index in the film's colours.
func (f *Film) color(c color.Color) uint16 {
	rgb := rgba(c)
	if i, ok := f.index[rgb]; ok {
		return i
	}
	f.index[rgb] = uint16(len(f.colors))
	f.colors = append(f.colors, rgb)
	return f.index[rgb]
}

// rgba is c, opaque, 8 bits a channel.
func rgba(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// blend is a over b at coverage alpha.
func blend(a, b color.RGBA, alpha float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(float64(x)*alpha + float64(y)*(1-alpha) + 0.5) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}
