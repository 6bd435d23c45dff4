// Package draw holds the small drawing pieces the dashboard's panes share:
// a style's escape sequences taken once (Paint), so a frame styles text by
// concatenation instead of a lipgloss Render per piece; bars in eighths of
// a cell; the layout of a pane's lines (Fit, Flow, Edge); and the braille
// plot the charts draw on (Braille).
package draw

import (
	"math"
	"strconv"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas/runes"
	"github.com/charmbracelet/lipgloss"
)

// Bar is a horizontal bar of fraction (0..1) of width cells, its end in
// eighths of a cell (ntcharts' left block elements).
func Bar(fraction float64, width int) string {
	cells := max(min(fraction, 1), 0) * float64(width)
	full := math.Floor(cells)
	s := strings.Repeat("█", int(full))
	if end := runes.LeftBlockElementFromFloat64(cells - full); end != runes.Null {
		s += string(end)
	}
	return s
}

// Paint is a style's escape sequences, taken once, so that styling a text
// is two concatenations instead of a lipgloss Render (which resolves the
// colours for the terminal and walks the text) on every frame. For styles
// of colours and attributes only (no width, padding, margin or border),
// on texts of one line without tabs; take it after the colour profile
// and the background are decided, as they are before the program starts.
//
// A pane's Styles are Paints, each made once from its lipgloss style by
// NewPaint: the style and the strings a frame concatenates cannot drift
// apart, and a variant (a provider's accent) is made from Style.
type Paint struct {
	pre, post string
	style     *lipgloss.Style // kept for variants; a pointer keeps Paint small
}

// NewPaint takes s's escape sequences.
func NewPaint(s lipgloss.Style) Paint {
	r := s.Render("x") // escape sequences hold no 'x'
	i := strings.IndexByte(r, 'x')
	return Paint{pre: r[:i], post: r[i+1:], style: &s}
}

// Foreground is the Paint of text in colour c.
func Foreground(c lipgloss.TerminalColor) Paint { return NewPaint(lipgloss.NewStyle().Foreground(c)) }

// Foregrounds are the Paints of text in each of colours (the providers' palette).
func Foregrounds(colors []lipgloss.TerminalColor) []Paint {
	out := make([]Paint, len(colors))
	for i, c := range colors {
		out[i] = Foreground(c)
	}
	return out
}

// Style is the lipgloss style the Paint was made from, to make a variant:
// NewPaint(p.Style().Foreground(accent)).
func (p Paint) Style() lipgloss.Style {
	if p.style == nil {
		return lipgloss.NewStyle()
	}
	return *p.style
}

// Render styles text.
func (p Paint) Render(text string) string {
	if text == "" {
		return ""
	}
	return p.pre + text + p.post
}

// Prefix and Suffix are what Render writes before and after a text, for
// a pane that writes a styled run into a buffer of its own.
func (p Paint) Prefix() string { return p.pre }
func (p Paint) Suffix() string { return p.post }

// RenderLines styles every line.
func (p Paint) RenderLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = p.Render(l)
	}
	return out
}

// SimulatedBanners are the banner of a race with sims simulated providers
// of all (config.SimulatedCount), longest first, for the room there is;
// none where no provider is simulated. Where only some are (a providers
// file that names sim: models beside real ones) it says how many; their
// lanes' sim: models say which.
func SimulatedBanners(sims, all int) []string {
	switch sims {
	case 0:
		return nil
	case all:
		return []string{" SIMULATED providers — not real measurements ", " SIMULATED — not real ", " SIMULATED "}
	}
	some := strconv.Itoa(sims) + " of " + strconv.Itoa(all)
	return []string{" " + some + " SIMULATED — not real measurements ", " " + some + " SIMULATED "} // the count, at any width
}
