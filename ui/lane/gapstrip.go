package lane

import (
	"math"
	"strings"
	"time"

	"github.com/NimbleMarkets/ntcharts/canvas/runes"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/ui/internal/draw"
)

// GapStrip is the gap strip of a lane, drawn under its chunk strip: one
// cell per text event, the last width events (the chunk strip's cells, so
// the two line up), its height the event's gap since the event before it
// (metrics.Gap) on a log scale the same for every lane: ▁ at 1 ms or less
// up to ▇ at 250 ms (metrics.StallGap), about a factor 2.5 a level. A
// stall (metrics.IsStall) is a full block █ painted stall, so it shows
// without colour too; the other cells are painted gap. The first event of
// the stream has no gap: a blank cell.
func GapStrip(events probes.Events, width int, gap, stall draw.Paint) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	run := make([]rune, 0, width)
	stalled := false // run holds stall cells
	flush := func() {
		if stalled {
			b.WriteString(stall.Render(string(run)))
		} else {
			b.WriteString(gap.Render(string(run)))
		}
		run = run[:0]
	}
	start := max(events.Len()-width, 0)
	var prev probes.Event // the event before e
	if start > 0 {
		prev = events.Event(start - 1)
	}
	for i, e := range events.From(start) {
		cell, isStall := ' ', false
		if i > 0 {
			cell, isStall = gapCell(metrics.Gap(&prev, &e))
		}
		if isStall != stalled && len(run) > 0 {
			flush()
		}
		stalled = isStall
		run = append(run, cell)
		prev = e
	}
	flush()
	return b.String()
}

// gapCell is a gap's cell in the gap strip and whether it is a stall: a
// non-stall gap takes 1 to 7 eighths of a cell (ntcharts' lower block
// elements) by its logarithm from 1 ms to metrics.StallGap.
func gapCell(gap time.Duration) (rune, bool) {
	if metrics.IsStall(gap) {
		return runes.FullBlock, true
	}
	x := math.Log(max(float64(gap)/float64(time.Millisecond), 1)) / math.Log(float64(metrics.StallGap/time.Millisecond))
	return runes.LowerBlockElementFromFloat64((1 + 6*min(x, 1)) / 8), false
}
