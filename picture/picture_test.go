package picture

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/gif"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/sfnt"
)

var (
	background = color.RGBA{0x12, 0x12, 0x12, 0xff}
	foreground = color.RGBA{0xe6, 0xe6, 0xe6, 0xff}
)

// testFilm is three screens of a small terminal in true colour: a box
// with a line of text, a braille chart growing, and a bar.
func testFilm(t *testing.T, fps int) *Film {
	t.Helper()
	f, err := NewFilm(Options{Cols: 20, Rows: 6, Width: 400, Height: 200, FPS: fps, Background: background, Foreground: foreground})
	if err != nil {
		t.Fatal(err)
	}
	screen := func(chart, bar string) string {
		return "\x1b[38;2;78;78;78m╭──────────────────╮\x1b[0m\n" +
			"\x1b[38;2;78;78;78m│\x1b[0m \x1b[1;38;2;95;175;255msim-wafer\x1b[0m ✓ 1st   \x1b[38;2;78;78;78m│\x1b[0m\n" +
			"\x1b[38;2;78;78;78m│\x1b[0m\x1b[38;2;255;135;95m" + chart + "\x1b[0m\x1b[38;2;78;78;78m│\x1b[0m\n" +
			"\x1b[38;2;78;78;78m│\x1b[0m\x1b[38;2;135;215;95m" + bar + "\x1b[0m\x1b[38;2;78;78;78m│\x1b[0m\n" +
			"\x1b[38;2;78;78;78m╰──────────────────╯\x1b[0m\n" +
			"\x1b[7;38;2;255;175;0m SIMULATED \x1b[0m ⚑ ▶ ⏸"
	}
	f.Add(0, screen("⡀                 ", "▏                 "))
	f.Add(300*time.Millisecond, screen("⡀⠄⠂               ", "████▌             "))
	f.Add(320*time.Millisecond, screen("⡀⠄⠂⠁⠈            ", "████▌             "))  // gone before the next sample: never shown
	f.Add(350*time.Millisecond, screen("⡀⠄⠂               ", "████▌             ")) // the same screen again: the same scene
	f.Add(600*time.Millisecond, screen("⡀⠄⠂⠁⠈⠐⠠⢀         ", "██████████▊       "))
	f.End(time.Second)
	return f
}

// A GIF of the film: its size, a frame a scene, delays that add up to the
// film's length, and the pixels of a scene where the cells put them.
func TestGIF(t *testing.T) {
	f := testFilm(t, 10)
	if f.Scenes() != 3 || f.Length() != time.Second {
		t.Fatalf("%d scenes over %v, want 3 over 1s (the frame at 320ms falls between samples, the one at 350ms repeats the one at 300ms)", f.Scenes(), f.Length())
	}
	var out bytes.Buffer
	if err := f.WriteGIF(&out); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&out)
	if err != nil {
		t.Fatal(err)
	}
	if g.Config.Width != 400 || g.Config.Height != 200 || len(g.Image) != 3 {
		t.Fatalf("%dx%d, %d frames: want 400x200, 3", g.Config.Width, g.Config.Height, len(g.Image))
	}
	if total := g.Delay[0] + g.Delay[1] + g.Delay[2]; g.Delay[0] != 30 || total != 100 {
		t.Errorf("delays %v, want 30 first and 1s in all", g.Delay)
	}
	l, _ := layoutOf(f.o)
	pixel := func(frame, x, y int) color.RGBA { // as a viewer shows it: the frames so far, drawn over one another
		for i := frame; i >= 0; i-- {
			if img := g.Image[i]; image.Pt(x, y).In(img.Bounds()) {
				if _, _, _, a := img.At(x, y).RGBA(); a != 0 {
					return rgba(img.At(x, y))
				}
			}
		}
		return color.RGBA{}
	}
	// The top border: one unbroken line in its colour across the box.
	border := color.RGBA{78, 78, 78, 0xff}
	y := l.y + l.cellH/2
	for x := l.x + l.cellW; x < l.x+19*l.cellW; x++ {
		if c := pixel(0, x, y); c != border {
			t.Fatalf("the top border at x=%d is %v, want %v: box drawing must join", x, c, border)
		}
	}
	// The bar: ████ fills its cells in its colour from the second scene on.
	green := color.RGBA{135, 215, 95, 0xff}
	barX, barY := l.x+2*l.cellW+l.cellW/2, l.y+3*l.cellH+l.cellH/2
	if pixel(0, barX, barY) == green || pixel(1, barX, barY) != green {
		t.Errorf("the bar's second cell: %v then %v, want the background then %v", pixel(0, barX, barY), pixel(1, barX, barY), green)
	}
	// Reverse video: the banner's background is its text colour.
	if c := pixel(2, l.x+l.cellW/2, l.y+5*l.cellH+2); c != (color.RGBA{255, 175, 0, 0xff}) {
		t.Errorf("the reversed banner's background is %v", c)
	}
}

// An SVG of the film is XML, shows each scene in turn (a keyframe at each
// scene's start), and draws the shapes as paths, not text.
func TestSVG(t *testing.T) {
	f := testFilm(t, 10)
	var out bytes.Buffer
	if err := f.WriteSVG(&out); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(out.Bytes()))
	var texts []string
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, out.String())
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		case xml.EndElement:
			inText = false
		}
	}
	svg := out.String()
	for _, want := range []string{`width="400" height="200"`, "30%{visibility:visible}", "60%{visibility:visible}", "use{animation:1s step-end infinite}",
		"prefers-reduced-motion", ".c0{fill:#121212}"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q:\n%s", want, svg)
		}
	}
	all := strings.Join(texts, "|")
	if !strings.Contains(all, "sim-wafer") || !strings.Contains(all, "SIMULATED") {
		t.Errorf("texts %q, want the name and the banner", all)
	}
	if strings.ContainsAny(all, "─│╭⡀█⚑▶⏸✓") {
		t.Errorf("texts %q hold a glyph that is drawn as a shape", all)
	}
}

// Every character the dashboard's code writes (ui and the packages whose
// text it shows) is in Go Mono or drawn as a shape: the picture has the
// glyphs the dashboard draws, and a new symbol fails here until it has one.
func TestEveryGlyphTheDashboardDrawsIsDrawn(t *testing.T) {
	font, err := sfnt.Parse(gomono.TTF)
	if err != nil {
		t.Fatal(err)
	}
	var buf sfnt.Buffer
	missing := map[rune][]string{}
	for _, dir := range []string{"../ui", "../format", "../metrics", "../benchdoc", "../workload"} {
		filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			raw, err := os.ReadFile(path)
			for _, r := range string(raw) {
				if r < 0x80 || drawn(r) {
					continue
				}
				if i, _ := font.GlyphIndex(&buf, r); i == 0 && len(missing[r]) < 3 {
					missing[r] = append(missing[r], path)
				}
			}
			return err
		})
	}
	for r, where := range missing {
		t.Errorf("%q (U+%04X, in %s) is neither in Go Mono nor drawn", r, r, strings.Join(where, ", "))
	}
}

// Bad options are refused before any work, saying what is wrong.
func TestOptionsCheck(t *testing.T) {
	ok := Options{Cols: 120, Rows: 40, Width: 1280, Height: 720, FPS: 10, Background: background, Foreground: foreground}
	for _, tc := range []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.FPS = 0 }, "0 frames a second: want 1 to 20"},
		{func(o *Options) { o.FPS = 60 }, "60 frames a second"},
		{func(o *Options) { o.Width, o.Height = 300, 200 }, "120x40 cells do not fit in 300x200 pixels"},
		{func(o *Options) { o.Cols = 0 }, "no cells"},
	} {
		o := ok
		tc.change(&o)
		if err := o.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", o, err, tc.want)
		}
	}
	if err := ok.Check(); err != nil {
		t.Errorf("the default options: %v", err)
	}
	// 120x40 fills a 1280x720 slide: cells 9x17, no margin wider than it must be.
	if l, _ := layoutOf(ok); l.cellW != 9 || l.cellH != 17 || l.y > 20 {
		t.Errorf("layout %+v", l)
	}
}
