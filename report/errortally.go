package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"tpsrace/format"
)

// errorTally counts failed streams by message, messages that differ only
// in numbers or quoted text counted together: a provider's errors carry a
// token count, a request id or an excerpt of what it sent, and a bench of
// 200 runs against a server that died would otherwise print 200 lines.
type errorTally struct {
	kinds []errorKind // in the order first seen
}

// errorKind is one group of alike messages.
type errorKind struct {
	key   string // the messages' shape (errorShape)
	first string // the first message, shown for them all
	count int
	alike bool // some message differed from the first (in numbers or quoted text)
}

// add counts one failed stream's message.
func (t *errorTally) add(message string) {
	key := errorShape(message)
	i := slices.IndexFunc(t.kinds, func(k errorKind) bool { return k.key == key })
	if i < 0 {
		t.kinds = append(t.kinds, errorKind{key: key, first: message})
		i = len(t.kinds) - 1
	}
	t.kinds[i].count++
	t.kinds[i].alike = t.kinds[i].alike || message != t.kinds[i].first
}

// lines are "16 × 401 invalid_api_key: …" for messages all the same, and
// "197 alike, the first: connection closed mid-stream after 598 tokens"
// for messages that differ only in numbers or quoted text; in the order
// first seen, or, byCount, most frequent first.
func (t errorTally) lines(byCount bool) []string {
	kinds := slices.Clone(t.kinds)
	if byCount {
		slices.SortStableFunc(kinds, func(a, b errorKind) int { return cmp.Compare(b.count, a.count) })
	}
	var lines []string
	for _, k := range kinds {
		if k.alike {
			lines = append(lines, fmt.Sprintf("%s alike, the first: %s", format.Count(k.count), orDash(k.first)))
		} else {
			lines = append(lines, fmt.Sprintf("%s × %s", format.Count(k.count), orDash(k.first)))
		}
	}
	return lines
}

// errorShape is message with each run of digits read as 0 and each quoted
// string ("…", Go's %q, escapes included) as "": what alike messages share.
func errorShape(message string) string {
	var b strings.Builder
	for i := 0; i < len(message); i++ {
		c := message[i]
		switch {
		case isDigit(c):
			for i+1 < len(message) && isDigit(message[i+1]) {
				i++
			}
			b.WriteByte('0')
		case c == '"':
			for i++; i < len(message) && message[i] != '"'; i++ {
				if message[i] == '\\' {
					i++
				}
			}
			b.WriteString(`""`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
