package speedchart

import (
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
)

// Span is one provider's way to a workload's figure, for a race whose
// figure is a time (a tool call complete, a JSON answer valid): the wait
// to the first piece (the first tool-call delta, the first answer byte),
// then the piece being written until it is done, judged.
type Span struct {
	First, Done       time.Duration
	HasFirst, HasDone bool
	Settled           bool // the verdict on it is in (Valid)
	Valid             bool
	Failed            bool          // no stream got as far
	End               time.Duration // Failed: when its last stream ended, where its row stops
}

// Timeline, when set (FrameMsg.Timeline), replaces the tokens plot: a row
// per provider on one time axis, "┄" while it waits, "━" while it writes,
// ✓ or ✗ where it was done, and the time; Title names the figure
// ("to a complete tool call").
type Timeline struct {
	Title string
	Spans []Span // by provider index
}

// timelineLines are the timeline m.frame.Timeline, drawn up to m.frame.Until.
func (m *Model) timelineLines() []string {
	t := m.frame.Timeline
	until := m.frame.Until
	nameW := 0
	for _, n := range m.names {
		nameW = max(nameW, draw.Width(n))
	}
	nameW = min(nameW, m.width/3)
	const figureW = 9 // " ✓ 1.25s"
	barW := m.width - nameW - 2 - figureW
	// The legend goes on a row of its own above the time axis where one is
	// free, else at the title's end where it fits whole.
	title, legend := "time "+t.Title, "┄ wait ━ write"
	own := len(t.Spans)+2 < m.height-1
	if !own && draw.Width(title+" · "+legend) <= m.width-1 {
		title += " · " + legend
	}
	out := []string{" " + m.styles.Title.Render(draw.Words(title, m.width-1))}
	col := func(d time.Duration) int { return int(fraction(d, until)*float64(barW-1) + 0.5) }
	for i, s := range t.Spans {
		if len(out) >= m.height-1 || i >= len(m.names) {
			break
		}
		bar := []rune(strings.Repeat(" ", barW))
		end, figure := col(until), ""
		switch {
		case s.HasDone:
			end = col(s.Done)
			mark := "✓"
			if s.Settled && !s.Valid {
				mark = "✗"
			}
			figure = mark + " " + format.Duration(s.Done)
		case s.Failed || s.Settled:
			figure = "✗" // no stream's call (answer) came out valid
		}
		first := end
		switch {
		case s.HasFirst:
			first = col(s.First)
		case s.Failed: // it never waited past its failure, and wrote nothing
			end = col(s.End)
			first = end + 1
		}
		for k := 0; k <= end && k < barW; k++ {
			bar[k] = '┄'
			if k >= first {
				bar[k] = '━'
			}
		}
		name := format.PadRight(format.Truncate(m.names[i], nameW, "…"), nameW)
		line := m.styles.provider(i).Render(name+" "+string(bar)) + " " + figure
		out = append(out, " "+line)
	}
	for len(out) < m.height-2 {
		out = append(out, "")
	}
	if own {
		out = append(out, " "+format.PadLeft(m.styles.Label.Render(legend), nameW+1+barW))
	}
	for len(out) < m.height-1 {
		out = append(out, "")
	}
	axis := m.timeAxis(nameW+2, barW)
	out = append(out[:m.height-1], axis)
	for k := range out {
		out[k] = format.PadRight(format.Truncate(out[k], m.width, ""), m.width)
	}
	return out
}
