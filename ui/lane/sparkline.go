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
	heights := make([]float64, sw) // each column's height in rows
	copy(heights, live.Resample(series, sw))
	for k, v := range heights {
		heights[k] = scale.Fraction(v) * float64(rows)
	}
	markerRow := min(int(scale.Fraction(metrics.ReadingTPS)*float64(rows)), rows-1) // from the bottom
	y := rows - 1 - markerRow
	lines := m.sparkCells(heights, rows, y)
	for i := range lines {
		label := ""
		switch {
		case i == 0:
			label = m.styles.Label.Render("scale " + format.Short(scale.Top))
		case i == 1:
			label = m.styles.Label.Render(unit)
		}
		lines[i] += " " + format.PadLeft(label, gutter-1)
	}
	return lines
}

// sparkCells draws columns heights (in rows, 0..rows) as rows of
// ntcharts' lower block elements (runes.LowerBlockElementFromFloat64: a
// column's top cell in eighths), top row first, and the reading-speed
// marker in the empty cells of row markerY; a row is written as runs of
// bars and of marker, one concatenation each (draw.Paint).
//
// It stops short of ntcharts' sparkline.Model, whose canvas holds a
// 552-byte lipgloss style per cell, made anew on every Clear, and whose
// View renders each cell through lipgloss: a lane's sparkline took several
// times as long (BenchmarkSparklineModel against BenchmarkSparkCells,
// docs/BENCHMARKS.md), and every streaming lane draws one each frame.
func (m *Model) sparkCells(heights []float64, rows, markerY int) []string {
	lines := make([]string, rows)
	var sb strings.Builder
	run := make([]rune, 0, len(heights))
	for i := range lines {
		sb.Reset()
		fromBottom := float64(rows - 1 - i)
		marker := false // the run is the reading-speed marker, not bars
		first := true   // the run starts the row
		flush := func() {
			// The marker's first run, where it has room, says what it marks.
			if marker && first && len(run) >= len(markerLabel)+2 {
				copy(run, []rune(markerLabel+" "))
			}
			first = false
			if marker {
				sb.WriteString(m.styles.ReadingMarker.Render(string(run)))
			} else {
				sb.WriteString(m.styles.Spark.Render(string(run)))
			}
			run = run[:0]
		}
		for _, h := range heights {
			r, isMarker := runes.LowerBlockElementFromFloat64(h-fromBottom), false
			switch {
			case r == runes.Null && i == markerY:
				r, isMarker = '┈', true
			case r == runes.Null:
				r = ' '
			}
			if isMarker != marker && len(run) > 0 {
				flush()
			}
			marker = isMarker
			run = append(run, r)
		}
		flush()
		lines[i] = sb.String()
	}
	return lines
}

// markerLabel names the dotted marker, written on it where the bars leave
// it room at the row's start.
const markerLabel = "reading speed"
