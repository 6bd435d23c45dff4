package draw

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts or pads every line to width and the list to height.
func Fit(lines []string, width, height int) []string {
	out := make([]string, height)
	for i := range out {
		line, pad := "", width
		if i < len(lines) {
			line, pad = Cut(lines[i], width)
		}
		out[i] = line + Pad(pad)
	}
	return out
}

// Cut is line cut to width ("…" saying so), and the cells left over.
func Cut(line string, width int) (_ string, left int) {
	w := Width(line)
	if w > width {
		line, w = ansi.Truncate(line, width, "…"), width
	}
	return line, max(width-w, 0)
}

// spaces are what Pad slices.
var spaces = strings.Repeat(" ", 512)

// Pad is n spaces, a slice of one string where n is a pane's width or
// less: every pane pads its lines on every frame.
func Pad(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(spaces) {
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

// Flow lays fields out left to right, two spaces apart, wrapping onto at
// most maxLines lines; fields that do not fit are left out.
func Flow(fields []string, width, maxLines int) []string {
	var lines []string
	line, lineW := "", 0
	for _, f := range fields {
		fw := Width(f)
		if fw > width {
			continue
		}
		if lineW > 0 && lineW+2+fw > width {
			lines = append(lines, line)
			line, lineW = "", 0
		}
		if len(lines) == maxLines {
			break
		}
		if lineW > 0 {
			line += "  "
			lineW += 2
		}
		line += f
		lineW += fw
	}
	if lineW > 0 && len(lines) < maxLines {
		lines = append(lines, line)
	}
	return lines
}

// Edge is a top or bottom border with a text at each end: "╭─ left ──── right ─╮".
// The right text (the lane's status) is kept whole and the left one is
// cut to make room; the right goes only when it does not fit alone.
func Edge(style Paint, leftCorner, fill, rightCorner, left, right string, width int) string {
	inner := width - 2
	lw, rw := Width(left), Width(right)
	if right != "" && rw+4 > inner {
		right, rw = "", 0
	}
	room := inner - 4
	if right != "" {
		room = inner - rw - 6
	}
	if left != "" && lw > room {
		left = ansi.Truncate(left, max(room, 0), "…")
		lw = Width(left)
	}
	if lw == 0 {
		left = ""
	}
	var sb strings.Builder
	used := 0
	sb.WriteString(style.Render(leftCorner))
	if left != "" && inner >= 4 {
		sb.WriteString(style.Render(fill) + " " + left + " ")
		used += lw + 3
	}
	tail := ""
	if right != "" {
		tail = " " + right + " " + style.Render(fill)
		used += rw + 3
	}
	sb.WriteString(style.Render(strings.Repeat(fill, max(inner-used, 0))))
	sb.WriteString(tail + style.Render(rightCorner))
	return sb.String()
}
