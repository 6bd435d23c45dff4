package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// bigGlyphs are 5 rows high: a figure a back row reads on a projector.
// The decimal point is as wide as a digit's stroke is long (2 cells), so
// "24.7" does not read as "247" from the back of the room.
var bigGlyphs = map[rune][5]string{
	'0': {"████", "█  █", "█  █", "█  █", "████"},
	'1': {"  █ ", " ██ ", "  █ ", "  █ ", " ███"},
	'2': {"████", "   █", "████", "█   ", "████"},
	'3': {"████", "   █", " ███", "   █", "████"},
	'4': {"█  █", "█  █", "████", "   █", "   █"},
	'5': {"████", "█   ", "████", "   █", "████"},
	'6': {"████", "█   ", "████", "█  █", "████"},
	'7': {"████", "   █", "  █ ", " █  ", " █  "},
	'8': {"████", "█  █", "████", "█  █", "████"},
	'9': {"████", "█  █", "████", "   █", "████"},
	'.': {"  ", "  ", "  ", "  ", "██"},
	',': {"  ", "  ", "  ", " █", "█ "},
	'-': {"    ", "    ", "████", "    ", "    "},
	// Lower case, for times: "850ms", "1.24s", "2m05s".
	'm': {"     ", "     ", "█████", "█ █ █", "█ █ █"},
	's': {"    ", " ███", "██  ", "  ██", "███ "},
}

// bigText is s in bigGlyphs, one space between glyphs, each cell scale ×
// scale; runes without a glyph are left out.
func bigText(s string, scale int) []string { return bigTextScaled(s, scale, scale) }

// bigTextScaled is bigText with each cell wide × high: a terminal cell is
// about twice as tall as wide, so wide = 2 × high draws square cells.
func bigTextScaled(s string, wide, high int) []string {
	rows := make([]string, 5)
	for _, r := range s {
		g, ok := bigGlyphs[r]
		if !ok {
			continue
		}
		for k := range rows {
			if rows[k] != "" {
				rows[k] += " "
			}
			rows[k] += g[k]
		}
	}
	if wide <= 1 && high <= 1 {
		return rows
	}
	var scaled []string
	for _, row := range rows {
		var sb strings.Builder
		for _, r := range row {
			sb.WriteString(strings.Repeat(string(r), max(wide, 1)))
		}
		for range max(high, 1) {
			scaled = append(scaled, sb.String())
		}
	}
	return scaled
}

// center pads s on both sides to width.
func center(s string, width int) string {
	w := ansi.StringWidth(s)
	if w >= width {
		return ansi.Truncate(s, width, "")
	}
	left := (width - w) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", width-w-left)
}
