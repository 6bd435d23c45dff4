package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/internal/draw"
)

// figureHelp explains, one line each, the figures on screen; docs/METRICS.md
// has their full definitions, metrics/metrics.go
// the code. The numbers in it are metrics' own constants.
func figureHelp() [][2]string {
	return [][2]string{
		{"TTFT", "time to first token: release → the first streamed text"},
		{"TTFA", "time to first answer: TTFT + a reasoning model's thinking"},
		{"speed, tok/s", "per user: tokens after the first ÷ first-to-last token time"},
		{"now", "live tok/s: tokens that arrived in the last " + format.Duration(metrics.LiveWindow)},
		{fmt.Sprintf("%d agent calls", metrics.AgentCalls), fmt.Sprintf("%d chained calls × (TTFT + %d tokens): what an agent waits", metrics.AgentCalls, metrics.AgentCallTokens)},
		{"feel", fmt.Sprintf("slow < %d tok/s · conversational ≥ %d · voice-ready ≥ %d", metrics.ConversationalTPS, metrics.ConversationalTPS, metrics.VoiceReadyTPS)},
		{"reading speed", fmt.Sprintf("%.0f words/min ≈ %.1f tok/s (dotted line); N× = N times that", metrics.ReadingTPS*metrics.WordsPerToken*60, metrics.ReadingTPS)},
		{"start skew", "how far apart the providers' requests left the barrier"},
		{"⚑, feel", fmt.Sprintf("⚑ flagged (zoom: why) · feel smooth/bursty/N stalls > %s", format.Duration(metrics.StallGap))},
	}
}

// helpPage is the body in help mode: every key, then what each figure means.
func (m *Model) helpPage() []string {
	s := m.c.styles
	keysTitle := s.Title.Render("Keys")
	lines := []string{keysTitle, ""}
	// As many columns of keys side by side as the width takes.
	m.c.help.Width = 0
	var row [][]key.Binding
	for _, group := range m.helpKeys().FullHelp() {
		if len(row) > 0 && ansi.StringWidth(strings.SplitN(m.c.help.FullHelpView(append(row, group)), "\n", 2)[0]) > m.c.width {
			lines = append(lines, splitLines(m.c.help.FullHelpView(row))...)
			row = nil
		}
		row = append(row, group)
	}
	lines = append(lines, splitLines(m.c.help.FullHelpView(row))...)
	if m.replay != nil && m.replay.rp.Made != "" {
		lines = append(lines, "", s.Title.Render("This replay ")+s.Label.Render(m.replay.rp.Made))
	}
	figuresTitle := s.Title.Render("What the numbers mean") + s.Label.Render(" (docs/METRICS.md)")
	lines = append(lines, "", figuresTitle, "")
	labelW := 0
	for _, f := range figureHelp() {
		labelW = max(labelW, len(f[0])+2)
	}
	for _, f := range figureHelp() {
		// A narrow window loses a definition's last words, never part of a number.
		lines = append(lines, s.Status.Render(format.PadRight(f[0], labelW))+s.Label.Render(draw.Words(f[1], max(m.c.width-labelW, 0))))
	}
	// A short window keeps every line by dropping the blank lines under the
	// titles, then, if need be (a header with a "skipped:" line), the ones
	// between the sections too.
	for _, under := range []func(i int) bool{
		func(i int) bool { return i > 0 && (lines[i-1] == keysTitle || lines[i-1] == figuresTitle) },
		func(int) bool { return true },
	} {
		if len(lines) <= m.c.layout.Body {
			break
		}
		var kept []string
		for i, l := range lines {
			if l == "" && under(i) {
				continue
			}
			kept = append(kept, l)
		}
		lines = kept
	}
	for i, line := range lines {
		lines[i] = ansi.Truncate(line, m.c.width, "…")
	}
	return lines
}

// footerLine is the keys line, after the message if there is one. `?` and
// `q` stay visible whenever the window is 40 wide or more: the other keys
// drop from the end first, then the message's last words.
func (m *Model) footerLine() string {
	k := footerKey{width: m.c.width, state: m.state, zoomed: m.zoomed(), message: m.footer.message, failed: m.footer.failed}
	if m.footer.key == k && m.footer.line != "" {
		return m.footer.line
	}
	if m.c.cast { // nobody can press a key in a recording: the message alone
		m.footer.key, m.footer.line = k, m.c.styles.Message.Render(draw.Words(m.footer.message, m.c.width))
		return m.footer.line
	}
	const gap = "  " // between the message and the keys, kept when the message is cut
	if m.footer.message == "" {
		m.footer.key, m.footer.line = k, m.fitKeys(m.helpKeys().ShortHelp(), m.c.width)
		return m.footer.line
	}
	style := m.c.styles.Message
	if m.footer.failed {
		style = m.c.styles.Error
	}
	keys := m.fitKeys(m.helpKeys().ShortHelp(), m.c.width-draw.Width(m.footer.message)-len(gap))
	// A message too long gives way a word at a time: no figure is cut inside.
	msg := style.Render(draw.Words(m.footer.message, max(m.c.width-ansi.StringWidth(keys)-len(gap), 0)))
	line := msg + m.c.styles.Label.Render(gap) + keys
	m.footer.key, m.footer.line = k, line
	return line
}

// footer is the message the footer shows and the keys line, drawn once
// for what it depends on (key) and reused by every frame.
type footer struct {
	message string // where results were saved, errors
	failed  bool   // the message is an error
	key     footerKey
	line    string
}

// footerKey is what the footer line depends on.
type footerKey struct {
	width          int
	state          state
	zoomed, failed bool
	message        string
}

// fitKeys is the short help of bindings within width: the help and quit
// keys always, the others in order while they fit.
func (m *Model) fitKeys(bindings []key.Binding, width int) string {
	essential := func(b key.Binding) bool {
		return b.Help().Key == m.c.keys.Help.Help().Key || b.Help().Key == m.c.keys.Quit.Help().Key
	}
	m.c.help.Width = 0 // measured here, never cut with "…"
	for n := len(bindings); ; n-- {
		var shown []key.Binding
		others := 0
		for _, b := range bindings {
			if essential(b) {
				shown = append(shown, b)
			} else if others < n {
				shown = append(shown, b)
				others++
			}
		}
		view := m.c.help.ShortHelpView(shown)
		if n == 0 || ansi.StringWidth(view) <= width {
			return view
		}
	}
}

// skippedLine names the providers left out of the session, and why: a
// speaker who forgot an export sees it before the race, not after quitting.
func (m *Model) skippedLine() string {
	skipped := m.c.config.Skipped
	if len(skipped) == 0 {
		return ""
	}
	parts := make([]string, len(skipped))
	for i, n := range skipped {
		parts[i] = n.Provider + " — " + n.Reason
	}
	line := m.c.styles.Paused.Render("skipped: ") + m.c.styles.Label.Render(strings.Join(parts, "; "))
	return ansi.Truncate(line, m.c.width, "…")
}
