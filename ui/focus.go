package ui

// selection is the focused lane, or none: tab and shift+tab move it, esc
// clears it, zooming a lane focuses it.
type selection struct {
	lane int
	ok   bool
}

// focused is lane i selected.
func focused(i int) selection { return selection{lane: i, ok: true} }

// is reports whether lane i is the one selected.
func (s selection) is(i int) bool { return s.ok && s.lane == i }

// next is the lane after the selected one of n, the first when none is.
func (s selection) next(n int) selection {
	if !s.ok {
		return focused(0)
	}
	return focused((s.lane + 1) % n)
}

// previous is the lane before the selected one of n, the last when none is.
func (s selection) previous(n int) selection {
	if !s.ok {
		return focused(n - 1)
	}
	return focused((s.lane + n - 1) % n)
}

// within is s, or none when its lane is not among n.
func (s selection) within(n int) selection {
	if s.lane >= n {
		return selection{}
	}
	return s
}
