package ui

// strip is whether lane i is drawn as a strip, a line or two under the
// others (lane.Strip: it failed before its first token), as last laid out.
func (m *Model) strip(i int) bool { return i < len(m.drawn.strips) && m.drawn.strips[i] > 0 }

// restrip lays the screen out again when a lane became a strip, or the
// lines it takes as one changed, since the last layout: a lane that fails
// before its first token gives its box to the lanes still racing at once,
// and a race again gives every lane its box back. It runs once the lanes
// have this frame's figures, and says whether it laid the screen out again
// (the lanes then draw once more, at their new widths).
func (m *Model) restrip() bool {
	if m.zoomed() {
		return false
	}
	for i := range m.lanes {
		was := 0
		if i < len(m.drawn.strips) {
			was = m.drawn.strips[i]
		}
		if m.lanes[i].StripRows(m.c.width) != was {
			m.relayout()
			return true
		}
	}
	return false
}
