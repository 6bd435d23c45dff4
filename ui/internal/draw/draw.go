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
