package lane

import (
	"github.com/charmbracelet/lipgloss"

	"tpsrace/ui/internal/draw"
	"tpsrace/ui/theme"
)

// Styles of a lane, each a lipgloss style with its escape sequences taken
// once (draw.Paint): a frame styles text by concatenation. WithAccent
// gives a lane its provider's colour.
type Styles struct {
	Border, FocusedBorder draw.Paint
	Title                 draw.Paint // provider name
	Model                 draw.Paint
	Label                 draw.Paint // "TTFT", "tok/s"
	Value                 draw.Paint // the figures
	Waiting, Thinking     draw.Paint // statuses
	Streaming, Done       draw.Paint
	Failed                draw.Paint
	Answer                draw.Paint
	Reasoning             draw.Paint
	Note                  draw.Paint // "waiting for the first token…", "thought for…"
	Error                 draw.Paint
	Spark                 draw.Paint
	Track                 draw.Paint // the empty part of the race track, and its finish line
	Queued                draw.Paint // "48 queued"
	ReadingMarker         draw.Paint
	Stall                 draw.Paint // a stall's cell in the gap strip
	Slow, Conversational  draw.Paint // feel badges
	VoiceReady            draw.Paint
	Places                [3]draw.Paint // 1st, 2nd, 3rd to finish
}

// DefaultStyles are built from palette p. Call it once the colour profile
// and the background are decided (draw.Paint).
func DefaultStyles(p theme.Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	paint := draw.NewPaint
	return Styles{
		Border:         paint(fg(p.Border)),
		FocusedBorder:  paint(fg(p.Focus).Bold(true)),
		Title:          paint(fg(p.Text).Bold(true)),
		Model:          paint(fg(p.Muted)),
		Label:          paint(fg(p.Muted)),
		Value:          paint(fg(p.Text).Bold(true)),
		Waiting:        paint(fg(p.Muted)),
		Thinking:       paint(fg(p.Thinking)),
		Streaming:      paint(fg(p.Live).Bold(true)),
		Done:           paint(fg(p.Good).Bold(true)),
		Failed:         paint(fg(p.Bad).Bold(true)),
		Answer:         paint(fg(p.Text).Bold(p.Bold)),
		Reasoning:      paint(fg(p.Faint).Italic(true)),
		Note:           paint(fg(p.Muted).Italic(true)),
		Error:          paint(fg(p.Bad)),
		Spark:          paint(fg(p.Live)),
		Track:          paint(fg(p.Faint)),
		Queued:         paint(fg(p.Warn).Bold(true)),
		ReadingMarker:  paint(fg(p.Warn)),
		Stall:          paint(fg(p.Warn).Bold(true)),
		Slow:           paint(fg(p.Bad)),
		Conversational: paint(fg(p.Thinking)),
		VoiceReady:     paint(fg(p.Good)),
		Places:         [3]draw.Paint{paint(fg(p.Gold).Bold(true)), paint(fg(p.Silver).Bold(true)), paint(fg(p.Bronze).Bold(true))},
	}
}

// WithAccent colours the title and the sparkline.
func (s Styles) WithAccent(c lipgloss.TerminalColor) Styles {
	s.Title = draw.NewPaint(s.Title.Style().Foreground(c))
	s.Spark = draw.NewPaint(s.Spark.Style().Foreground(c))
	return s
}
