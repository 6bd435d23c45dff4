package format

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is ansi.StringWidth(s), the cells s takes on screen, without
// segmenting graphemes when it need not: a dashboard frame measures every
// line and cell it draws, and those are SGR escape sequences, printable
// ASCII and the one-cell symbols the panes draw with (box drawing, blocks, braille, "…",
// "·", "✓"). Anything else (another escape sequence, a control, a rune
// that may join its neighbour, a wide rune) is measured by ansi.StringWidth.
func Width(s string) int {
	n := 0
	var oneCell []bool // oneCellTable, fetched at the first rune past ASCII
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2 // parameters and intermediates, then the final byte
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x40 {
				j++
			}
			if j == len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c >= utf8.RuneSelf:
			if oneCell == nil {
				oneCell = oneCellTable()
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if int(r) >= len(oneCell) || !oneCell[r] {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// narrowRanges hold no rune that extends, prepends to or joins a grapheme
// (no combining mark, no zero-width or variation selector, no Hangul or
// regional indicator), so each of their runes is a grapheme of its own:
// the ones ansi.StringWidth draws in one cell are counted one by one.
var narrowRanges = [][2]rune{
	{0x00A0, 0x02FF}, // Latin-1 and Latin Extended: "·", "×", "µ"
	{0x2010, 0x2027}, // dashes, quotes, "•", "…"
	{0x2030, 0x205E},
	{0x20A0, 0x20BF}, // currency
	{0x2190, 0x23FF}, // arrows, mathematical operators ("≈"), technical ("⏸")
	{0x2500, 0x27BF}, // box drawing, blocks, geometric shapes, dingbats ("✓", "✗")
	{0x2800, 0x28FF}, // braille
}

// oneCellTable()[r] says rune r (below len) is in narrowRanges and one cell
// wide. Made on first use: measuring its 2,300 runes is work every command
// would pay at start, and only the screens need it.
var oneCellTable = sync.OnceValue(func() []bool {
	t := make([]bool, 0x2900)
	for _, rg := range narrowRanges {
		for r := rg[0]; r <= rg[1]; r++ {
			t[r] = ansi.StringWidth(string(r)) == 1
		}
	}
	return t
})

// Truncate is ansi.Truncate(s, width, tail), which measures s whole before
// it cuts: measured here with Width, a line that fits (most lines a frame
// draws) is never segmented into graphemes.
func Truncate(s string, width int, tail string) string {
	if Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, tail)
}

// Name is a provider's name in width cells, its end cut ("deep-think…"),
// but for a merged race's lane (provider@probe), which keeps its probe and
// cuts the provider ("groq-l…@fra" beside "groq-l…@iad": cut at the end,
// the two read alike).
func Name(name string, width int) string {
	if Width(name) <= width {
		return name
	}
	if at := strings.LastIndex(name, "@"); at > 0 {
		if room := width - Width(name[at:]); room >= 3 {
			return Truncate(name[:at], room, "…") + name[at:]
		}
	}
	return Truncate(name, width, "…")
}
