// Package draw turns an ntcharts canvas into text quickly. ntcharts' own
// View renders every cell through lipgloss on its own, which at 30 frames a
// second is most of a frame's cost; this renders each run of neighbouring
// cells that share a foreground colour (the only attribute the dashboard's
// charts use) in one call, for the same text.
package draw

import (
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/charmbracelet/lipgloss"
)

// Canvas is c's text, row by row.
func Canvas(c *canvas.Model) string {
	var sb strings.Builder
	var run []rune
	for y := range c.Height() {
		if y > 0 {
			sb.WriteByte('\n')
		}
		var style lipgloss.Style
		var fg lipgloss.TerminalColor
		flush := func() {
			if len(run) > 0 {
				sb.WriteString(style.Render(string(run)))
				run = run[:0]
			}
		}
		for x := range c.Width() {
			cell := c.Cell(canvas.Point{X: x, Y: y})
			r := cell.Rune
			if r == 0 {
				r = ' '
			}
			if cf := cell.Style.GetForeground(); len(run) == 0 || cf != fg {
				flush()
				style, fg = cell.Style, cf
			}
			run = append(run, r)
		}
		flush()
	}
	return sb.String()
}

// Bar is a horizontal bar of fraction (0..1) of width cells, in eighths.
func Bar(fraction float64, width int) string {
	eighths := int(max(min(fraction, 1), 0)*float64(width*8) + 0.5)
	full, rest := eighths/8, eighths%8
	s := strings.Repeat("█", full)
	if rest > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[rest-1])
	}
	return s
}
