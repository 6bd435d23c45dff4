package lane

import (
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas/runes"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// sparkLines draws per-user live tok/s from the release to now (or to the
// end) on the scale every lane shares (FrameMsg.Scale), with a dotted
// marker at reading speed where the bars stay below it, and the top and
// the marker labelled in words: "scale 1.1k", then "tok/s" ("tok/s, log"
// when the scale is logarithmic) under it, and "reading speed" on the
// marker where the bars leave it room. The top says "scale" because a
// number with its unit beside a lane's bars reads as that lane's speed,
// where it is the fastest lane's peak: the lane's own figures are above.
func (m *Model) sparkLines(width, rows int) []string {
	series := m.provider.Series(m.figures.Elapsed)
	scale := m.scale
	if scale.Top <= 0 {
		scale = live.SharedScale([]*live.Lane{m.provider}, m.figures.Elapsed)
	}
	unit := "tok/s"
	if scale.Log {
		unit += ", log"
	}
	gutter := len("scale 1.1k") + 1
	sw := width - gutter
	if sw < 4 {
		return nil
	}
	heights := live.Resample(series, sw) // each column's height in rows
	if heights == nil {                  // no sample yet: no bars
		heights = make([]float64, sw)
	}
	for k, v := range heights {
		heights[k] = scale.Fraction(v) * float64(rows)
	}
	markerRow := min(int(scale.Fraction(metrics.ReadingTPS)*float64(rows)), rows-1) // from the bottom
	labels := make([]string, rows)
	for i := range labels {
		label := ""
		switch {
		case i == 0:
			label = m.styles.Label.Render("scale " + format.Short(scale.Top))
		case i == 1:
			label = m.styles.Label.Render(unit)
		}
		labels[i] = " " + format.PadLeft(label, gutter-1)
	}
	return m.sparkCells(heights, rows-1-markerRow, labels)
}

// sparkCells draws columns heights (in rows, 0..len(labels)) as rows of
// ntcharts' lower block elements (runes.LowerBlockElementFromFloat64: a
// column's top cell in eighths), top row first, and the reading-speed
// marker in the empty cells of row markerY; a row is written as runs of
// bars and of marker, one concatenation each (draw.Paint), then its label.
//
// It stops short of ntcharts' sparkline.Model, whose canvas holds a
// 552-byte lipgloss style per cell, made anew on every Clear, and whose
// View renders each cell through lipgloss: a lane's sparkline took several
// times as long (BenchmarkSparklineModel against BenchmarkSparkCells,
// docs/BENCHMARKS-HISTORY.md, "Charts: ntcharts"), and every streaming
// lane draws one each frame.
func (m *Model) sparkCells(heights []float64, markerY int, labels []string) []string {
	rows := len(labels)
	lines := make([]string, rows)
	cells := make([]rune, len(heights))
	for i := range lines {
		fromBottom := float64(rows - 1 - i)
		marked := false // the row has marker cells
		for k, h := range heights {
			r := runes.LowerBlockElementFromFloat64(h - fromBottom)
			switch {
			case r == runes.Null && i == markerY:
				r, marked = markerCell, true
			case r == runes.Null:
				r = ' '
			}
			cells[k] = r
		}
		lines[i] = m.sparkRow(cells, marked, labels[i])
	}
	return lines
}

// markerCell is a cell of the reading-speed marker.
const markerCell = '┈'

// sparkRow writes one row of cells as runs of bars and of marker, each
// painted once, then label, into one string sized once. The marker's run
// that starts the row says what it marks, where it has room.
func (m *Model) sparkRow(cells []rune, marked bool, label string) string {
	var sb strings.Builder
	sb.Grow(3*len(cells) + 4*len(m.styles.Spark.Prefix()+m.styles.Spark.Suffix()) + len(label))
	for start := 0; start < len(cells); {
		isMarker := marked && cells[start] == markerCell
		end := start + 1
		for end < len(cells) && (marked && cells[end] == markerCell) == isMarker {
			end++
		}
		paint := m.styles.Spark
		if isMarker {
			paint = m.styles.ReadingMarker
		}
		sb.WriteString(paint.Prefix())
		run := cells[start:end]
		if isMarker && start == 0 && len(run) >= len(markerLabel)+2 {
			sb.WriteString(markerLabel + " ")
			run = run[len(markerLabel)+1:]
		}
		for _, r := range run {
			sb.WriteRune(r)
		}
		sb.WriteString(paint.Suffix())
		start = end
	}
	sb.WriteString(label)
	return sb.String()
}

// markerLabel names the dotted marker, written on it where the bars leave
// it room at the row's start.
const markerLabel = "reading speed"
