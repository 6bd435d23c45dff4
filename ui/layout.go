package ui

import (
	"slices"

	"tpsrace/ui/leaderboard"
	"tpsrace/ui/workloadview"
)

// Layout is where every pane goes for one window size. It is computed by
// one pure function from the window size, the number of lanes and the mode,
// on every resize and mode change, and pushed down to the panes.
//
// The rules, in order:
//   - The header is 2 lines (title and status, then the prompt); 1 line
//     below 16 rows. The footer is the help (1 line; more with full help).
//   - Zoomed, one lane takes the whole body.
//   - A lane that failed before its first token (lane.Strip) is a strip:
//     a full-width line or two under the grid or list, saying what failed.
//     Its box would hold that line and emptiness; the lanes still
//     racing get the room. Strips are placed first; everything below is
//     of the other lanes.
//   - The leaderboard is a header row, a row per provider and the verdict
//     line. It is shown when the lanes keep at least 1 line each next to it.
//   - The chart of live tok/s sits beside the leaderboard from 120 columns
//     (leaderboard 60% of the width, chart the rest), and above it when the
//     window is narrower but the body has 30 or more rows; it is dropped
//     when the lanes would fall under their minimum size.
//   - The workload panel (ui/workloadview: long-context, cached-prefix and
//     multi-turn runs; panel its height range, Least 0 for none) goes full
//     width above the leaderboard, which must be shown, a quarter of the
//     body high within its range. It matters more than the chart and
//     the lanes' boxes: it is placed first, smaller if the lanes then keep
//     a grid, and it is dropped whole only when the lanes would not keep 2
//     lines each as rows (a summary and a line of the answer).
//   - Lanes fill what is left in a grid: every column count from 1 to the
//     number of lanes is tried, keeping those whose lanes are at least
//     MinLaneWidth × MinLaneHeight, and the one whose lanes are "squarest"
//     for text wins (the larger of min(width, 3×height); fewer columns on a
//     tie). A last row short of lanes shares the whole width among those it
//     has (3, 5, 7 lanes leave no empty cell). When no grid fits, lanes
//     become a list of borderless full-width rows: a summary line, then the
//     tail of the answer.
type Layout struct {
	Width, Height int
	Header        int // lines
	Footer        int // lines
	Body          int // lines between header and footer

	Zoomed  bool
	List    bool  // lanes as borderless rows (too small for a grid)
	Cols    int   // lanes per row
	Lanes   int   // lanes in the grid or list: the strips are not
	Strips  int   // lines of the strips under the grid or list
	Widths  []int // width of each column of lanes
	LastRow []int // width of each lane of a last row short of lanes; nil when it is full
	Rows    []int // height of each row of lanes (List: of each lane)

	Board      Pane
	Panel      Pane // the workload panel
	Chart      Pane
	SideBySide bool // leaderboard and chart share the bottom rows
	// Headline is how many of the leaderboard's last lines are its
	// headline (the verdicts and flags, leaderboard.HeadlineRows), drawn
	// the whole window wide: beside the chart, the chart ends above them.
	Headline int
}

// Pane is a shown-or-not area.
type Pane struct {
	Show          bool
	Width, Height int
}

// Minimum lane size in a grid, and the chart's.
const (
	MinLaneWidth  = 36
	MinLaneHeight = 7
	minChartWidth = 40
	chartHeight   = 8   // when stacked
	sideBySideMin = 120 // columns from which the chart sits beside the leaderboard
)

// PanelRows is the workload panel's height range (workloadview.Rows);
// Least 0: no panel.
type PanelRows struct{ Least, Most int }

// ComputeLayout lays out lanes lanes in a width × height window with
// footer lines of help, a leaderboard (a row per lane, strips too) whose
// verdicts take headline lines (1, 2 with heats) and the workload panel.
// strips are the lines each lane takes as a strip, 0 for a lane in the
// grid (nil: none).
func ComputeLayout(width, height, lanes int, strips []int, zoomed bool, footer, headline int, panel PanelRows) Layout {
	width, height, lanes = max(width, 0), max(height, 0), max(lanes, 0)
	l := Layout{Width: width, Height: height, Header: 2, Footer: footer, Zoomed: zoomed, Lanes: lanes}
	if height < 16 {
		l.Header = 1
	}
	l.Footer = min(l.Footer, max(height-l.Header, 0))
	l.Body = max(height-l.Header-l.Footer, 0)
	if lanes == 0 {
		return l
	}
	if zoomed {
		l.Cols, l.Widths, l.Rows = 1, []int{width}, []int{l.Body}
		return l
	}

	for _, rows := range strips {
		if rows > 0 {
			l.Lanes--
			l.Strips += rows
		}
	}
	l.Lanes, l.Strips = max(l.Lanes, 0), min(l.Strips, l.Body)
	boardH := lanes + 1 + headline
	avail := l.room()
	if avail-boardH >= l.Lanes {
		l.Board = Pane{Show: true, Width: width, Height: boardH}
		avail -= boardH
	}
	if l.Board.Show {
		avail -= l.panelRows(avail, width, l.Lanes, panel)
		bottom := l.chartRows(avail, width, l.Lanes)
		avail = l.room() - l.Panel.Height - bottom
		l.Headline = leaderboard.HeadlineRows(lanes, l.Board.Height, headline > 1)
		if l.SideBySide {
			l.Chart.Height -= l.Headline
		}
	}
	if l.Lanes == 0 { // every lane is a strip
		return l
	}
	l.grid(avail)
	return l
}

// room is the body less the strips: the lanes' and the bottom block's.
func (l *Layout) room() int { return l.Body - l.Strips }

// grid lays the lanes out in avail lines: the best grid, else a list.
func (l *Layout) grid(avail int) {
	width, lanes := l.Width, l.Lanes
	if cols, ok := bestGrid(width, avail, lanes); ok {
		l.Cols = cols
		l.Widths = split(width, cols)
		l.Rows = split(avail, (lanes+cols-1)/cols)
		if short := lanes % cols; short > 0 {
			l.LastRow = split(width, short)
		}
		return
	}
	l.List, l.Cols, l.Widths, l.Rows = true, 1, []int{width}, split(avail, lanes)
}

// chartRows places the chart if it fits (leaving the lanes a grid), sets
// the board and chart panes, and returns the rows the bottom block takes.
// avail is the body left once the board is placed.
func (l *Layout) chartRows(avail, width, lanes int) int {
	boardH := l.Board.Height
	if width >= sideBySideMin {
		bottom := max(boardH, min(max(l.room()/4, chartHeight), 14))
		if _, ok := bestGrid(width, l.room()-l.Panel.Height-bottom, lanes); ok {
			boardW := width * 6 / 10
			l.SideBySide = true
			l.Board = Pane{Show: true, Width: boardW, Height: bottom}
			l.Chart = Pane{Show: true, Width: width - boardW, Height: bottom}
			return bottom
		}
	} else if l.room()-l.Panel.Height >= 30 && width >= minChartWidth {
		if _, ok := bestGrid(width, avail-chartHeight, lanes); ok {
			l.Chart = Pane{Show: true, Width: width, Height: chartHeight}
			return boardH + chartHeight
		}
	}
	return boardH
}

// panelRows places the workload panel if it fits and returns its height.
// avail is the body left once the board is placed.
func (l *Layout) panelRows(avail, width, lanes int, panel PanelRows) int {
	if panel.Least <= 0 || width < workloadview.MinWidth {
		return 0
	}
	heights := []int{min(max(l.room()/4, panel.Least), panel.Most), panel.Least}
	for _, grid := range []bool{true, false} {
		for _, h := range heights {
			_, ok := bestGrid(width, avail-h, lanes)
			if ok || !grid && avail-h >= 2*lanes {
				l.Panel = Pane{Show: true, Width: width, Height: h}
				return h
			}
		}
	}
	return 0
}

// bestGrid picks the column count for lanes in a width × height area;
// no lanes fit in no columns wherever there is room.
func bestGrid(width, height, lanes int) (cols int, ok bool) {
	if lanes == 0 {
		return 0, height >= 0
	}
	best := -1
	for c := 1; c <= lanes; c++ {
		rows := (lanes + c - 1) / c
		w, h := width/c, height/rows
		if w < MinLaneWidth || h < MinLaneHeight {
			continue
		}
		if score := min(w, 3*h); score > best {
			best, cols = score, c
		}
	}
	return cols, best >= 0
}

// split divides total into n parts differing by at most one, larger first.
func split(total, n int) []int {
	if n <= 0 {
		return nil
	}
	parts := make([]int, n)
	for i := range parts {
		parts[i] = total / n
		if i < total%n {
			parts[i]++
		}
	}
	return parts
}

// LaneSize is lane i's size in the grid or the list (zoomed: the zoomed
// lane's, whatever i).
func (l Layout) LaneSize(i int) (width, height int) {
	switch {
	case l.Cols == 0 || i < 0 || i >= l.Lanes:
		return 0, 0
	case l.Zoomed:
		return l.Widths[0], l.Rows[0]
	case l.List:
		return l.Widths[0], l.Rows[i]
	case l.LastRow != nil && i >= l.Lanes-len(l.LastRow):
		return l.LastRow[i-(l.Lanes-len(l.LastRow))], l.Rows[len(l.Rows)-1]
	}
	return l.Widths[i%l.Cols], l.Rows[i/l.Cols]
}

// NarrowestLane is the width of the narrowest lane (0 for none): every
// lane draws its race track this wide, so one length is one distance.
func (l Layout) NarrowestLane() int {
	if len(l.Widths) == 0 {
		return 0
	}
	return slices.Min(l.Widths)
}
