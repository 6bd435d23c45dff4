package draw

import "strings"

// What gives way on a line that is too narrow gives way whole: a figure
// cut inside ("start skew 8" for 875µs, "racing 100" for 100ms) reads as
// a real figure on a projector.

// Segment is a part of a line that shows whole or not at all. Rank says
// what gives way first: the highest rank; among equals, the last.
type Segment struct {
	Text string // styled; measured with Width
	Rank int
}

// Join joins the segments with sep, dropping whole segments until the line
// is at most width wide.
func Join(segs []Segment, sep string, width int) string {
	kept := make([]bool, len(segs))
	total, shown := -Width(sep), 0
	for i, s := range segs {
		kept[i] = true
		total += Width(s.Text) + Width(sep)
		shown++
	}
	for total > width && shown > 0 {
		drop := -1
		for i, s := range segs {
			if kept[i] && (drop < 0 || s.Rank >= segs[drop].Rank) {
				drop = i
			}
		}
		kept[drop] = false
		total -= Width(segs[drop].Text) + Width(sep)
		shown--
	}
	var b strings.Builder
	for i, s := range segs {
		if !kept[i] {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s.Text)
	}
	return b.String()
}

// Words is plain text s cut to width at a word boundary, " …" saying so:
// no word (a figure such as "2.4–2.6×") is cut inside, and a parenthesised
// group gives way whole.
func Words(s string, width int) string {
	if Width(s) <= width {
		return s
	}
	const more = " …"
	cut := ""
	for _, u := range wordUnits(s) {
		if Width(cut+u+more) > width {
			break
		}
		cut += u
	}
	if strings.TrimSpace(cut) == "" {
		if width >= Width(more)-1 {
			return strings.TrimSpace(more)
		}
		return ""
	}
	return strings.TrimRight(cut, " ") + more
}

// wordUnits splits s into units that are kept or dropped whole: a word with
// the spaces before it, or a parenthesised group with them.
func wordUnits(s string) []string {
	var units []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ' ':
			if depth == 0 && i > start && s[i-1] != ' ' {
				units = append(units, s[start:i])
				start = i
			}
		}
	}
	return append(units, s[start:])
}

// Split cuts plain text s at a word boundary (Words' units: a
// parenthesised group is one) into the head that fits width and the rest.
func Split(s string, width int) (head, rest string) {
	for _, u := range wordUnits(s) {
		if rest == "" && Width(head+u) <= width {
			head += u
		} else {
			rest += u
		}
	}
	return strings.TrimRight(head, " "), strings.TrimSpace(rest)
}
