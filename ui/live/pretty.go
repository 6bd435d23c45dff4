package live

import "strings"

// prettyJSON indents JSON as it streams in, a fragment at a time, for a
// lane to show a tool call's arguments or a json answer as they arrive:
// each member on a line of its own, two cells deeper per level. It keeps
// no more than where it is (in a string, after a backslash, how deep), so
// it writes only what is new, and a fragment cut anywhere (mid-string,
// mid-number) continues where it stopped. Text outside any object or
// array (a Markdown fence around the JSON) comes out as it went in. The indent is
// no-break spaces: the lane's wrapper folds runs of plain spaces.
type prettyJSON struct {
	inString, escaped bool
	depth             int
	opened            bool // after { or [: the line break waits for what follows ("{}" stays on its line)
}

// indentUnit is one level of indent (two no-break spaces).
const indentUnit = "\u00a0\u00a0"

// write adds fragment to sb, indented.
func (p *prettyJSON) write(sb *strings.Builder, fragment string) {
	newline := func() { sb.WriteString("\n" + strings.Repeat(indentUnit, max(p.depth, 0))) }
	for _, r := range fragment {
		space := r == ' ' || r == '\t' || r == '\n' || r == '\r'
		if space && !p.inString {
			if p.depth <= 0 { // outside any object: text around it keeps its shape
				sb.WriteRune(r)
			}
			continue
		}
		if p.opened {
			p.opened = false
			if r == '}' || r == ']' {
				p.depth--
				sb.WriteRune(r)
				continue
			}
			newline()
		}
		switch {
		case p.inString:
			sb.WriteRune(r)
			switch {
			case p.escaped:
				p.escaped = false
			case r == '\\':
				p.escaped = true
			case r == '"':
				p.inString = false
			}
		case r == '"':
			p.inString = true
			sb.WriteRune(r)
		case r == '{' || r == '[':
			sb.WriteRune(r)
			p.depth++
			p.opened = true
		case r == '}' || r == ']':
			p.depth--
			newline()
			sb.WriteRune(r)
		case r == ',' && p.depth > 0:
			sb.WriteRune(r)
			newline()
		case r == ':' && p.depth > 0:
			sb.WriteString(": ")
		default:
			sb.WriteRune(r)
		}
	}
}
