package lane

import (
	"math"
	"strings"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// sparkLines draws per-user live tok/s from the release to now (or to the
// end) on the scale every lane shares (FrameMsg.Scale), with a dotted
// marker at reading speed where the bars stay below it, and the top and
// the marker labelled ("log" when the scale is logarithmic).
func (m *Model) sparkLines(width, rows int) []string {
	series := m.provider.Series(m.figures.Elapsed)
	scale := m.scale
	if scale.Top <= 0 {
		scale = live.SharedScale([]*live.Provider{m.provider}, m.figures.Elapsed)
	}
	topLabel := format.Short(scale.Top)
	if scale.Log {
		topLabel += " log"
	}
	gutter := max(6, len(topLabel)+1)
	sw := width - gutter
	if sw < 4 {
		return nil
	}
	columns := live.Resample(series, sw)
	eighths := make([]int, sw) // each column's height in eighths of a row
	for k, v := range columns {
		eighths[k] = int(math.Round(scale.Fraction(v) * float64(rows*8)))
	}
	markerRow := min(int(scale.Fraction(metrics.ReadingTPS)*float64(rows)), rows-1) // from the bottom
	y := rows - 1 - markerRow
	lines := make([]string, rows)
	var sb strings.Builder
	run := make([]rune, 0, sw)
	for i := range lines {
		sb.Reset()
		fromBottom := rows - 1 - i
		marker := false // the run is the reading-speed marker, not bars
		flush := func() {
			if marker {
				sb.WriteString(m.styles.ReadingMarker.Render(string(run)))
			} else {
				sb.WriteString(m.styles.Spark.Render(string(run)))
			}
			run = run[:0]
		}
		for _, e := range eighths {
			r, isMarker := sparkRune(e-8*fromBottom), false
			if r == ' ' && i == y {
				r, isMarker = '┈', true
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
	for i := range lines {
		label := ""
		switch {
		case i == 0:
			label = m.styles.Label.Render(topLabel)
		case i == y:
			label = m.styles.ReadingMarker.Render("read")
		}
		lines[i] += " " + format.PadLeft(label, gutter-1)
	}
	return lines
}

// sparkRune is a sparkline cell filled eighths eighths from its bottom.
func sparkRune(eighths int) rune {
	switch {
	case eighths <= 0:
		return ' '
	case eighths >= 8:
		return '█'
	}
	return []rune("▁▂▃▄▅▆▇")[eighths-1]
}
