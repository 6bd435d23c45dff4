package lane

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/probes"
	"tpsrace/ui/live"
)

// textLines is what the lane says below its figures: the tail of the
// answer (after a line about the thinking phase, if there was one), the
// reasoning while the model thinks, or why the stream failed.
func (m *Model) textLines(width, rows int) []string {
	if rows <= 0 {
		return nil
	}
	f := m.figures
	if f.Status == live.Failed {
		return m.styles.Error.RenderLines(wrapOnce(failureText(f), width, rows))
	}
	var footer []string
	if f.Failed > 0 && rows > 1 {
		footer = m.styles.Error.RenderLines(wrapOnce(failureText(f), width, 1))
		rows--
	}
	var lines []string
	switch {
	case m.answerLen == 0 && m.reasoningLen == 0:
		switch f.Status {
		case live.Waiting:
			lines = []string{m.styles.Note.Render(m.waitingNote())}
		case live.Done:
			lines = m.styles.Note.RenderLines(wrapOnce(m.noAnswerNote(), width, rows))
		}
	case m.answerLen == 0 && f.Status == live.Done && rows > 2:
		lines = m.styles.Note.RenderLines(wrapOnce(m.noAnswerNote(), width, 2))
		lines = append(lines, m.styles.Reasoning.RenderLines(m.reasoning.Tail(rows-len(lines)))...)
	case m.answerLen == 0:
		lines = append([]string{m.thinkingNote()}, m.styles.Reasoning.RenderLines(m.reasoning.Tail(rows-1))...)
	default:
		if m.thought() && rows > 1 {
			lines = append(lines, m.thinkingNote())
		}
		lines = append(lines, m.styles.Answer.RenderLines(m.answer.Tail(rows-len(lines)))...)
	}
	return append(lines, footer...)
}

// noAnswerNote is what a lane that ended without answer text says: what
// it thought, and the max_tokens limit when a stream stopped at it (a
// reasoning model that spent the limit thinking: "(no answer: 100 tokens
// of hidden thinking used up max_tokens)"), wrapped over two lines at most.
func (m *Model) noAnswerNote() string {
	f := m.figures
	var thought []string
	if m.reasoningLen > 0 {
		thought = append(thought, format.Count(m.provider.ReasoningTokens())+" tokens of thinking")
	}
	if hidden := f.Thinking.HiddenReasoningTokens; hidden > 0 {
		thought = append(thought, format.Count(hidden)+" tokens of hidden thinking")
	}
	why, limit := strings.Join(thought, " and "), m.stoppedAtLimit()
	switch {
	case limit && why != "":
		why += " used up max_tokens"
	case limit:
		why = "stopped at max_tokens"
	case why == "":
		return "(no text)"
	}
	return "(no answer: " + why + ")"
}

// stoppedAtLimit says whether a stream of the lane ended at max_tokens
// (finish_reason "length").
func (m *Model) stoppedAtLimit() bool {
	for _, s := range m.provider.Streams {
		if s.Result != nil && s.Result.FinishReason == "length" {
			return true
		}
	}
	return false
}

// waitingNote is what a lane without text waits for.
func (m *Model) waitingNote() string {
	switch {
	case m.loading != "":
		return m.loading
	case m.preparing:
		return "waiting for local servers…"
	}
	return "waiting for the first token…"
}

// thought is whether the lane has a thinking phase to tell of: reasoning
// streamed, or hidden (known once the streams end).
func (m *Model) thought() bool {
	return m.reasoningLen > 0 || m.figures.Thinking.HiddenReasoningTokens > 0
}

// thinkingNote folds the reasoning into one line: ongoing, or how long it
// took; thinking never streamed took the time to answer ("thought 1.00s ·
// 100 tokens hidden").
func (m *Model) thinkingNote() string {
	f := m.figures
	hidden := format.Count(f.Thinking.HiddenReasoningTokens)
	if m.reasoningLen == 0 {
		return m.styles.Note.Render("thought " + format.Duration(f.TTFA) + " · " + hidden + " tokens hidden")
	}
	tokens := format.Count(m.provider.ReasoningTokens()) + " tokens"
	if f.Thinking.HiddenReasoningTokens > 0 {
		tokens += " · " + hidden + " hidden"
	}
	if m.answerLen == 0 {
		return m.styles.Thinking.Render("thinking… " + tokens)
	}
	if f.HasTTFA && f.HasTTFT {
		return m.styles.Note.Render("thought for " + format.Duration(f.TTFA-f.TTFT) + " · " + tokens)
	}
	return m.styles.Note.Render("thought · " + tokens)
}

// viewportLines is the zoomed lane's whole text, scrolled by the viewport
// and following the tail while it is at the bottom.
func (m *Model) viewportLines(width, rows int) []string {
	m.viewport.Width, m.viewport.Height = width, rows
	failure := failureText(m.figures)
	hidden := m.figures.Thinking.HiddenReasoningTokens
	if text := m.answerLen + m.reasoningLen; text != m.viewportText || width != m.viewportWidth || failure != m.viewportFailure || hidden != m.viewportHidden {
		follow := m.viewport.AtBottom()
		var lines []string
		if failure != "" {
			lines = append(lines, m.styles.Error.RenderLines(wrapOnce(failure, width, 1000))...)
		}
		if m.thought() {
			lines = append(lines, m.thinkingNote())
			lines = append(lines, m.styles.Reasoning.RenderLines(m.reasoning.Lines())...)
			lines = append(lines, "")
		}
		lines = append(lines, m.styles.Answer.RenderLines(m.answer.Lines())...)
		m.viewport.SetContent(strings.Join(lines, "\n"))
		if follow {
			m.viewport.GotoBottom()
		}
		m.viewportText, m.viewportWidth, m.viewportFailure, m.viewportHidden = text, width, failure, hidden
	}
	return strings.Split(m.viewport.View(), "\n")
}

// failureText says why streams failed: the failure's own words (status,
// code, message, hint) for one stream, with a count for several.
func failureText(f live.Snapshot) string {
	if f.Err == nil {
		return ""
	}
	msg := f.Err.Error()
	if probes.KindOf(f.Err) == probes.KindCancelled {
		msg = "stopped before the end"
	}
	switch {
	case f.Streams == 1:
		return "✗ " + msg
	case f.Failed == f.Streams:
		return "✗ all " + itoa(f.Streams) + " streams failed: " + msg
	default:
		return "✗ " + itoa(f.Failed) + " of " + itoa(f.Streams) + " streams failed: " + msg
	}
}

// wrapOnce word-wraps a short text (a failure) and keeps its first rows
// lines; the last one kept ends with "…" when some are left out.
func wrapOnce(s string, width, rows int) []string {
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	if len(lines) <= rows || rows <= 0 {
		return lines[:min(len(lines), max(rows, 0))]
	}
	lines = lines[:rows]
	lines[rows-1] = format.Truncate(strings.TrimRight(lines[rows-1], " "), width-1, "") + "…"
	return lines
}
