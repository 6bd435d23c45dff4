package ui

import (
	"fmt"
	"testing"
)

func TestLayoutBreakpoints(t *testing.T) {
	for _, c := range []struct {
		w, h, lanes int
		want        string
	}{
		// 80×24: 2×2 grid, leaderboard, no chart.
		{80, 24, 4, "grid cols=2 widths=[40 40] rows=[8 7] board=80x6 chart=-"},
		// 120×40 and up: chart beside the leaderboard.
		{120, 40, 4, "grid cols=2 widths=[60 60] rows=[14 14] board=72x9 chart=48x7 side"},
		{160, 48, 4, "grid cols=2 widths=[80 80] rows=[17 17] board=96x11 chart=64x9 side"},
		{240, 60, 4, "grid cols=2 widths=[120 120] rows=[22 21] board=144x14 chart=96x12 side"},
		// Narrow but tall: chart stacked.
		{100, 50, 4, "grid cols=2 widths=[50 50] rows=[17 16] board=100x6 chart=100x8"},
		// Tiny: lanes become rows; the leaderboard stays while it fits.
		{40, 12, 4, "list cols=1 widths=[40] rows=[1 1 1 1] board=40x6 chart=-"},
		{60, 9, 4, "list cols=1 widths=[60] rows=[2 2 2 1] board=- chart=-"},
		// One provider, many providers.
		{80, 24, 1, "grid cols=1 widths=[80] rows=[18] board=80x3 chart=-"},
		{240, 60, 9, "grid cols=5 widths=[48 48 48 48 48] last=[60 60 60 60] rows=[22 21] board=144x14 chart=96x12 side"},
		// 3, 5, 7 lanes: a last row short of lanes shares the width, no cell stays empty.
		{80, 24, 3, "grid cols=2 widths=[40 40] last=[80] rows=[8 8] board=80x5 chart=-"},
		{120, 40, 3, "grid cols=2 widths=[60 60] last=[120] rows=[14 14] board=72x9 chart=48x7 side"},
		{160, 48, 5, "grid cols=3 widths=[54 53 53] last=[80 80] rows=[17 17] board=96x11 chart=64x9 side"},
		{240, 60, 7, "grid cols=4 widths=[60 60 60 60] last=[80 80 80] rows=[22 21] board=144x14 chart=96x12 side"},
	} {
		l := ComputeLayout(c.w, c.h, c.lanes, nil, false, 1, 1, PanelRows{})
		if got := describe(l); got != c.want {
			t.Errorf("%dx%d with %d lanes:\n got %s\nwant %s", c.w, c.h, c.lanes, got, c.want)
		}
		checkFits(t, l, c.lanes)
	}
}

// The workload panel (4 providers: 6 to 14 lines, long-context's) goes above the
// leaderboard before the chart; the lanes give up their boxes for it, and
// it gives way whole when they would not keep 2 lines each.
func TestLayoutWorkloadPanel(t *testing.T) {
	for _, c := range []struct {
		w, h, lanes int
		want        string
	}{
		{80, 24, 4, "list cols=1 widths=[80] rows=[3 2 2 2] board=80x6 chart=- panel=80x6"},
		{80, 24, 2, "grid cols=2 widths=[40 40] rows=[12] board=80x4 chart=- panel=80x5"},
		{120, 40, 4, "grid cols=2 widths=[60 60] rows=[10 9] board=72x9 chart=48x7 panel=120x9 side"},
		{160, 48, 4, "grid cols=4 widths=[40 40 40 40] rows=[23] board=96x11 chart=64x9 panel=160x11 side"},
		{240, 60, 4, "grid cols=4 widths=[60 60 60 60] rows=[29] board=144x14 chart=96x12 panel=240x14 side"},
		{100, 50, 4, "grid cols=2 widths=[50 50] rows=[11 11] board=100x6 chart=100x8 panel=100x11"},
		// Too small: no panel, the layout without one.
		{80, 24, 8, "list cols=1 widths=[80] rows=[2 2 2 1 1 1 1 1] board=80x10 chart=-"},
		{60, 20, 4, "list cols=1 widths=[60] rows=[3 3 3 2] board=60x6 chart=-"},
		{39, 40, 2, "grid cols=1 widths=[39] rows=[17 16] board=39x4 chart=-"},
	} {
		l := ComputeLayout(c.w, c.h, c.lanes, nil, false, 1, 1, PanelRows{c.lanes + 2, 14})
		if got := describe(l); got != c.want {
			t.Errorf("%dx%d with %d lanes:\n got %s\nwant %s", c.w, c.h, c.lanes, got, c.want)
		}
		checkFits(t, l, c.lanes)
	}
}

// Lanes that failed before their first token are strips, one line each
// under the grid, and give their boxes to the lanes still racing; the
// leaderboard keeps a row for every lane.
func TestLayoutStrips(t *testing.T) {
	for _, c := range []struct {
		w, h, lanes, strips int
		want                string
	}{
		{120, 40, 5, 2, "grid cols=3 widths=[40 40 40] rows=[27] strips=2 board=72x8 chart=48x6 side"},
		{120, 40, 4, 1, "grid cols=3 widths=[40 40 40] rows=[27] strips=1 board=72x9 chart=48x7 side"},
		{80, 24, 4, 1, "grid cols=2 widths=[40 40] last=[80] rows=[7 7] strips=1 board=80x6 chart=-"},
		{80, 24, 4, 4, "grid cols=0 widths=[] rows=[] strips=4 board=80x6 chart=-"},
		{160, 48, 4, 4, "grid cols=0 widths=[] rows=[] strips=4 board=96x10 chart=64x8 side"},
		{40, 12, 4, 2, "list cols=1 widths=[40] rows=[1 1] strips=2 board=40x6 chart=-"},
	} {
		strips := make([]int, c.lanes)
		for i := range c.strips {
			strips[i] = 1
		}
		l := ComputeLayout(c.w, c.h, c.lanes, strips, false, 1, 1, PanelRows{})
		if got := describe(l); got != c.want {
			t.Errorf("%dx%d with %d lanes, %d strips:\n got %s\nwant %s", c.w, c.h, c.lanes, c.strips, got, c.want)
		}
		checkFits(t, l, c.lanes-c.strips)
	}
}

func TestLayoutZoomed(t *testing.T) {
	l := ComputeLayout(80, 24, 4, nil, true, 1, 1, PanelRows{})
	if !l.Zoomed || l.Header+l.Rows[0]+l.Footer != 24 || l.Widths[0] != 80 || l.Board.Show {
		t.Fatalf("zoomed layout %+v", l)
	}
}

// Every size from nothing up to 250×70 lays out without a panic, and
// everything fits in the window.
func TestLayoutNeverOverflows(t *testing.T) {
	for lanes := 0; lanes <= 10; lanes++ {
		for w := 0; w <= 250; w += 7 {
			for h := 0; h <= 70; h += 3 {
				checkFits(t, ComputeLayout(w, h, lanes, nil, false, 1, 1, PanelRows{}), lanes)
				checkFits(t, ComputeLayout(w, h, lanes, nil, true, 4, 1, PanelRows{}), lanes)
				checkFits(t, ComputeLayout(w, h, lanes, nil, false, 1, 1, PanelRows{lanes + 2, 14}), lanes)
				strips := make([]int, lanes)
				for i := range strips { // every other lane a strip of 1 or 2 lines
					strips[i] = i % 2 * (1 + i%4/2)
					checkFits(t, ComputeLayout(w, h, lanes, strips, false, 1, 1, PanelRows{lanes + 2, 14}), lanes-(i+1)/2)
				}
			}
		}
	}
}

func checkFits(t *testing.T, l Layout, lanes int) {
	t.Helper()
	sum := func(xs []int) (n int) {
		for _, x := range xs {
			n += x
		}
		return n
	}
	bottom := l.Board.Height
	if l.SideBySide {
		bottom = max(l.Board.Height, l.Chart.Height)
	} else if l.Chart.Show {
		bottom += l.Chart.Height
	}
	if !l.Board.Show {
		bottom = 0
	}
	bottom += l.Panel.Height
	// Every line is laid out; with every lane a strip, what the strips and
	// the bottom block leave stays blank.
	got := l.Header + l.Footer + sum(l.Rows) + l.Strips + bottom
	if lanes > 0 && got != l.Height && l.Height >= 3 || got > max(l.Height, 3) {
		t.Errorf("%dx%d, %d lanes, %d strips: %d lines laid out", l.Width, l.Height, lanes, l.Strips, got)
	}
	if got := sum(l.Widths); lanes > 0 && got != l.Width {
		t.Errorf("%dx%d, %d lanes: lane widths add to %d", l.Width, l.Height, lanes, got)
	}
	// Every row of the grid is filled: the lanes of each row add up to the width.
	if lanes > 0 && l.Cols > 0 && !l.List && !l.Zoomed {
		rowW := map[int]int{}
		for i := range lanes {
			w, h := l.LaneSize(i)
			rowW[i/l.Cols] += w
			if h != l.Rows[i/l.Cols] {
				t.Errorf("%dx%d, %d lanes: lane %d is %d high in a row of %d", l.Width, l.Height, lanes, i, h, l.Rows[i/l.Cols])
			}
		}
		for row, w := range rowW {
			if w != l.Width {
				t.Errorf("%dx%d, %d lanes: row %d holds %d of %d columns", l.Width, l.Height, lanes, row, w, l.Width)
			}
		}
	}
	if l.SideBySide && l.Board.Width+l.Chart.Width != l.Width {
		t.Errorf("%dx%d: board and chart are %d+%d wide", l.Width, l.Height, l.Board.Width, l.Chart.Width)
	}
}

func describe(l Layout) string {
	kind := "grid"
	if l.List {
		kind = "list"
	}
	pane := func(p Pane) string {
		if !p.Show {
			return "-"
		}
		return fmt.Sprintf("%dx%d", p.Width, p.Height)
	}
	s := fmt.Sprintf("%s cols=%d widths=%v", kind, l.Cols, l.Widths)
	if l.LastRow != nil {
		s += fmt.Sprintf(" last=%v", l.LastRow)
	}
	s += fmt.Sprintf(" rows=%v", l.Rows)
	if l.Strips > 0 {
		s += fmt.Sprintf(" strips=%d", l.Strips)
	}
	s += fmt.Sprintf(" board=%s chart=%s", pane(l.Board), pane(l.Chart))
	if l.Panel.Show {
		s += " panel=" + pane(l.Panel)
	}
	if l.SideBySide {
		s += " side"
	}
	return s
}
