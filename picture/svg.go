package picture

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// svgFonts is the text's font: monospace fonts that viewers have, the one
// every system has last. Only letters, figures and punctuation come from it (every
// monospace font has them); box drawing, blocks, braille and the symbols
// are the shapes the GIF draws (shapes.go), as paths, because fonts lack
// them or draw them to other measures, and a chart would not line up. Each
// run of text is stretched to its cells (textLength), so a font a little
// wider or narrower than Go Mono's 0.6 em still keeps the grid.
const svgFonts = `"DejaVu Sans Mono","Menlo","Consolas","Liberation Mono","Go Mono",monospace`

// WriteSVG writes the film as an animated SVG that GitHub and browsers
// play (in an <img> too). Each piece of a row (cut at pane borders and
// gaps, pieces) is drawn once in <defs>; a <use> puts it on screen for as long as it
// stays, and a CSS animation shows it only then, so a line that does not
// change costs one element for the whole film. A viewer that asks for
// reduced motion sees the last scene, the final leaderboard.
func (f *Film) WriteSVG(w io.Writer) error {
	if len(f.scenes) == 0 {
		return errors.New("svg: the film has no frames")
	}
	l, err := layoutOf(f.o)
	if err != nil {
		return err
	}
	s := &svgWriter{f: f, l: l, pieces: map[string]string{}}
	placed := s.place()
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n",
		f.o.Width, f.o.Height, f.o.Width, f.o.Height)
	s.style(b, placed)
	fmt.Fprintf(b, "<defs>\n%s</defs>\n<rect width=\"%d\" height=\"%d\" class=\"c0\"/>\n", s.defs.String(), f.o.Width, f.o.Height)
	for _, p := range placed {
		fmt.Fprintf(b, `<use href="#%s" x="%d" y="%d"%s/>`+"\n", p.id, p.x, p.y, s.classOf(p))
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

// placing is a piece of a row on screen from scene from until scene to;
// shown numbers that interval among the film's distinct ones.
type placing struct {
	id       string
	x, y     int
	from, to int
	shown    int
}

// svgWriter writes one film's SVG.
type svgWriter struct {
	f      *Film
	l      layout
	defs   strings.Builder
	pieces map[string]string // a piece's cells → its id in <defs>
}

// place draws every scene's pieces into <defs> and says where and when
// each is on screen.
func (s *svgWriter) place() []*placing {
	f, l := s.f, s.l
	type spot struct{ row, c0, c1 int }
	on := map[spot]*placing{}
	var placed []*placing
	for i, sc := range f.scenes {
		seen := map[spot]bool{}
		for r := range f.o.Rows {
			row := sc.cells[r*f.o.Cols : (r+1)*f.o.Cols]
			for _, span := range pieces(row) {
				at := spot{r, span[0], span[1]}
				id := s.piece(row[span[0]:span[1]])
				p := on[at]
				if p != nil && p.id == id {
					seen[at] = true
					continue
				}
				if p != nil {
					p.to = i
					delete(on, at)
				}
				if id != "" {
					p := &placing{id: id, x: l.x + span[0]*l.cellW, y: l.y + r*l.cellH, from: i, to: len(f.scenes)}
					on[at], seen[at] = p, true
					placed = append(placed, p)
				}
			}
		}
		for at, p := range on {
			if !seen[at] {
				p.to = i
				delete(on, at)
			}
		}
	}
	return placed
}

// classOf is a piece's class attribute: its interval's animation, and e
// when it stays to the end; none for a piece shown all along.
func (s *svgWriter) classOf(p *placing) string {
	end := len(s.f.scenes)
	switch {
	case p.from == 0 && p.to == end:
		return ""
	case p.to == end:
		return fmt.Sprintf(` class="v%d e"`, p.shown)
	}
	return fmt.Sprintf(` class="v%d"`, p.shown)
}

// style is the SVG's fonts, colours and the keyframes of each interval a
// piece is shown for (step-end: each holds until the next).
func (s *svgWriter) style(b *bufio.Writer, placed []*placing) {
	f := s.f
	fmt.Fprintf(b, "<style>\ntext{font-family:%s;font-size:%spx;fill:#%02x%02x%02x}.b{font-weight:bold}.i{font-style:italic}.u{text-decoration:underline}\n",
		svgFonts, num(s.l.fontPx), f.colors[1].R, f.colors[1].G, f.colors[1].B)
	for i, c := range f.colors {
		fmt.Fprintf(b, ".c%d{fill:#%02x%02x%02x}", i, c.R, c.G, c.B)
	}
	at := func(scene int) string { return num(100*float64(f.scenes[scene].start)/float64(f.next)) + "%" }
	fmt.Fprintf(b, "\nuse{animation:%ss step-end infinite}\n", num(f.Length().Seconds()))
	intervals := map[[2]int]int{}
	for _, p := range placed {
		if p.from == 0 && p.to == len(f.scenes) {
			continue
		}
		k := [2]int{p.from, p.to}
		n, ok := intervals[k]
		if !ok {
			n = len(intervals)
			intervals[k] = n
			fmt.Fprintf(b, "@keyframes v%d{0%%{visibility:hidden}%s{visibility:visible}", n, at(p.from))
			if p.to < len(f.scenes) {
				fmt.Fprintf(b, "%s{visibility:hidden}", at(p.to))
			}
			fmt.Fprintf(b, "}.v%d{animation-name:v%d}\n", n, n)
		}
		p.shown = n
	}
	b.WriteString("@media (prefers-reduced-motion:reduce){use[class]{animation:none!important;visibility:hidden}.e{visibility:visible}}\n</style>\n")
}

// piece is the id of a piece of a row in <defs>, written the first time
// it is seen; "" for one that shows only the background.
func (s *svgWriter) piece(cells []cell) string {
	key := fmt.Sprint(cells)
	if id, ok := s.pieces[key]; ok {
		return id
	}
	body := s.pieceBody(cells)
	id := ""
	if body != "" {
		id = strconv.FormatInt(int64(len(s.pieces)), 36)
		fmt.Fprintf(&s.defs, "<g id=\"%s\">%s</g>\n", id, body)
	}
	s.pieces[key] = id
	return id
}

// pieceBody is a piece's backgrounds, text runs and shapes, from its
// top left corner.
func (s *svgWriter) pieceBody(cells []cell) string {
	var b strings.Builder
	l := s.l
	x := func(i int) int { return i * l.cellW }
	// Backgrounds, a rectangle a run of one colour.
	for i := 0; i < len(cells); {
		j := i + 1
		for j < len(cells) && cells[j].bg == cells[i].bg {
			j++
		}
		if cells[i].bg != 0 {
			fmt.Fprintf(&b, `<rect x="%d" width="%d" height="%d" class="c%d"/>`, x(i), (j-i)*l.cellW, l.cellH, cells[i].bg)
		}
		i = j
	}
	// Text, a <text> a run of one colour and style; a single blank joins
	// any run (SVG keeps a single space between words and no more).
	for i := 0; i < len(cells); {
		c := cells[i]
		if c.blank() || drawnCell(c) {
			i++
			continue
		}
		var text strings.Builder
		end := i
		for j := i; j < len(cells); j++ {
			d := cells[j]
			if !d.blank() && (drawnCell(d) || d.fg != c.fg || d.attrs != c.attrs) {
				break
			}
			if d.text == " " && j+1 < len(cells) && cells[j+1].text == " " {
				break // SVG text collapses spaces: a gap starts a new run
			}
			text.WriteString(d.text)
			if !d.blank() {
				end = j + int(max(d.width, 1))
			}
		}
		run := strings.TrimRight(text.String(), " ")
		fmt.Fprintf(&b, `<text x="%d" y="%d"`, x(i), l.baseline)
		if n := end - i; n > 1 {
			fmt.Fprintf(&b, ` textLength="%d"`, n*l.cellW)
		}
		if class := attrClasses(c.fg, c.attrs); class != "" { // the foreground is text's own fill
			fmt.Fprintf(&b, ` class="%s"`, class)
		}
		b.WriteString(">")
		xml.EscapeText(&b, []byte(run))
		b.WriteString("</text>")
		i = end
	}
	b.WriteString(s.shapes(cells))
	return b.String()
}

// drawnCell is whether the cell is a shape rather than text.
func drawnCell(c cell) bool {
	r := []rune(c.text)
	return len(r) == 1 && drawn(r[0])
}

// attrClasses is a text run's classes: its colour unless it is the
// foreground (text's own fill), and its attributes.
func attrClasses(fg uint16, a attrs) string {
	var s string
	if fg != 1 {
		s = " c" + strconv.Itoa(int(fg))
	}
	for _, c := range []struct {
		a    attrs
		name string
	}{{bold, " b"}, {italic, " i"}, {underline, " u"}} {
		if a&c.a != 0 {
			s += c.name
		}
	}
	return strings.TrimPrefix(s, " ")
}

// num is v with at most two decimals and no trailing zeros.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// pieces splits a row where a change in one part leaves the others as
// they were: after each vertical line (a pane's border) and around each gap
// of two or more empty cells (between a lane's figures, a table's columns),
// so a pane's line that scrolls up, or a figure that stays while its
// neighbour changes, is the same piece of <defs> again.
func pieces(row []cell) [][2]int {
	var spans [][2]int
	empty := func(i int) bool { return i < len(row) && row[i].text == " " && row[i].bg == 0 }
	start := -1 // the piece's first cell; -1 between pieces
	for i, c := range row {
		switch {
		case start < 0 && !empty(i):
			start = i
		case start >= 0 && empty(i) && empty(i+1):
			spans, start = append(spans, [2]int{start, i}), -1
		}
		if start >= 0 && (c.text == "│" || c.text == "┃" || c.text == "║") {
			spans, start = append(spans, [2]int{start, i + 1}), -1
		}
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(row)})
	}
	return spans
}
