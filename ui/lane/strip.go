package lane

import (
	"errors"
	"strings"

	"tpsrace/probes"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
)

// Strip is whether provider p's lane, at figures f, is a strip: a line or
// two under the others ("4 groq ✗ key refused · 401 invalid_api_key: …"),
// not a box. Every one of its streams failed before any text: its box
// would hold that line and emptiness, where the lanes still racing need
// the room. A lane that failed after text keeps its box and its text, and
// a race the user stopped (or a recording lost) keeps every box where it
// was: those lanes did not fail. The dashboard gives a strip StripRows
// lines; a lane under four lines high that is a strip draws the strip
// (why it failed says more than its empty figures), a taller one its box
// (zoomed).
func Strip(f live.Snapshot, p *live.Lane) bool {
	if f.Status != live.Failed || f.HasTTFT {
		return false
	}
	switch probes.KindOf(f.Err) {
	case probes.KindCancelled, probes.KindTruncated:
		return false
	}
	return p.Answer() == "" && p.Reasoning() == ""
}

// StripRows is how many lines the lane takes as a strip at width: 1 where
// its words fit, else 2; 0 when it is no strip (Strip) at its last frame.
func (m *Model) StripRows(width int) int {
	if !Strip(m.figures, m.provider) {
		return 0
	}
	head, what, why := m.stripParts()
	if draw.Width(head+" "+what+" · "+why) <= width {
		return 1
	}
	return 2
}

// stripParts are a strip's words, plain: the lane's number and name (⚑
// when flagged), what failed in a room's words (failedWords), and the
// failure's own words on one line.
func (m *Model) stripParts() (head, what, why string) {
	return m.flaggedName(), "✗ " + failedWords(m.figures.Err), failureLine(m.figures)
}

// failureLine is the failure's own words on one line, without failureText's
// "✗ " (the lane's status says it already).
func failureLine(f live.Snapshot) string {
	return strings.Join(strings.Fields(strings.TrimPrefix(failureText(f), "✗ ")), " ")
}

// renderStrip is the lane as a strip of its height (StripRows): the
// failure's words go on where the first line ends, and the last line is
// cut at a word, " …" saying so (zoom shows them whole).
func (m *Model) renderStrip() []string {
	head, what, why := m.stripParts()
	lead := head + " " + what + " · "
	if m.focused {
		lead = "▸ " + lead
	}
	first, rest := draw.Split(why, m.width-draw.Width(lead))
	if m.height < 2 || rest == "" {
		first, rest = draw.Words(why, m.width-draw.Width(lead)), ""
	}
	line := m.styles.Title.Render(head) + " " + m.styles.Failed.Render(what) + m.styles.Error.Render(" · "+first)
	if m.focused {
		line = m.styles.FocusedBorder.Render("▸ ") + line
	}
	lines := []string{line}
	if rest != "" {
		lines = append(lines, m.styles.Error.Render(draw.Words(rest, m.width)))
	}
	return draw.Fit(lines, m.width, m.height)
}

// failedWords says what failed before the first token in words a room
// reads at a glance; the failure's own words follow them.
func failedWords(err error) string {
	f, ok := errors.AsType[*probes.Failure](err)
	if !ok {
		return "failed"
	}
	switch f.Kind {
	case probes.KindNetwork:
		return "could not connect"
	case probes.KindTimeout:
		return "no answer in time"
	case probes.KindProtocol:
		return "unreadable answer"
	case probes.KindStream:
		return "error from the server"
	case probes.KindHTTP:
		switch {
		case f.Status == 401 || f.Status == 403:
			return "key refused"
		case f.Status == 404:
			return "model not found"
		case f.Status == 429:
			return "rate limited"
		case f.Status >= 500:
			return "server error"
		}
		return "request refused"
	}
	return "failed"
}
