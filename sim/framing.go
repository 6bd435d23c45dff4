package sim

import (
	"fmt"
	"strings"
)

// Framing is how the simulator frames its events on the wire (framing=):
// every way the WHATWG event-stream rules allow, so that a client's reader
// meets them all on the zero-key path, and must give the same figures
// under each. The zero value is the common framing: LF line ends, one data
// line an event, a blank line after each.
type Framing struct {
	LineEnd string // "\n" (lf), "\r\n" (crlf) or "\r" (cr)
	BOM     bool   // bom: a UTF-8 byte order mark before the first line
	Split   bool   // split: an event's JSON over several data: lines, cut after each comma outside a string
	Fields  bool   // fields: id: before each event, a comment between its data lines, retry: after them
	NoEnd   bool   // noend: no blank line after the last event; the body ends instead
}

// framings are the parts a framing= value joins with "+".
var framings = map[string]func(*Framing){
	"lf":     func(f *Framing) { f.LineEnd = "\n" },
	"crlf":   func(f *Framing) { f.LineEnd = "\r\n" },
	"cr":     func(f *Framing) { f.LineEnd = "\r" },
	"bom":    func(f *Framing) { f.BOM = true },
	"split":  func(f *Framing) { f.Split = true },
	"fields": func(f *Framing) { f.Fields = true },
	"noend":  func(f *Framing) { f.NoEnd = true },
}

func parseFraming(v string, dst *Framing) error {
	var f Framing
	for part := range strings.SplitSeq(v, "+") {
		set, ok := framings[part]
		if !ok {
			return fmt.Errorf("want parts of lf|crlf|cr, bom, split, fields, noend joined by +")
		}
		set(&f)
	}
	*dst = f
	return nil
}

func (f Framing) lineEnd() string {
	if f.LineEnd == "" {
		return "\n"
	}
	return f.LineEnd
}

// appendEvent appends one event whose data is payload, framed as f says;
// last marks the body's last event.
func (f Framing) appendEvent(b []byte, prefix string, payload []byte, id int, last bool) []byte {
	eol := f.lineEnd()
	if f.Fields {
		b = fmt.Appendf(b, "id: %d%s", id, eol)
	}
	for {
		line, rest := payload, []byte(nil)
		if f.Split {
			if cut := commaOutsideString(payload); cut >= 0 {
				line, rest = payload[:cut+1], payload[cut+1:]
			}
		}
		b = append(append(append(b, prefix...), line...), eol...)
		if rest == nil {
			break
		}
		if f.Fields {
			b = append(append(b, ": sim"...), eol...)
		}
		payload = rest
	}
	if f.Fields {
		b = append(append(b, "retry: 1000"...), eol...)
	}
	if !last || !f.NoEnd {
		b = append(b, eol...)
	}
	return b
}

// commaOutsideString is the index of the first comma of JSON text b that is
// not inside a string, or -1: a newline after it is JSON white space.
func commaOutsideString(b []byte) int {
	inString, escaped := false, false
	for i, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case c == ',' && !inString:
			return i
		}
	}
	return -1
}
