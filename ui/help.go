package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
)

// helpPages are the help mode's pages: every key, then every label the
// dashboard can show and what it means (vocabulary), and the providers
// left out of the session with why; as many pages as the window's height
// needs, ? turning to the next.
func (m *Model) helpPages() [][]string {
	s := m.c.styles
	lines := []string{s.Title.Render("Keys")}
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
	// The header's "N skipped · ? lists them" sends the reader here: the
	// list is on the first page, not after the pages of words.
	if skipped := m.c.config.Skipped; len(skipped) > 0 {
		lines = append(lines, "", s.Title.Render("Skipped providers"))
		for _, n := range skipped {
			lines = append(lines, s.Status.Render(n.Provider)+s.Label.Render(" — "+n.Reason))
		}
	}
	lines = append(lines, "", s.Title.Render("The words on screen")+s.Label.Render(" (docs/DASHBOARD.md, docs/METRICS.md)"))
	lines = append(lines, m.termLines(vocabulary())...)
	for i, line := range lines {
		lines[i] = ansi.Truncate(line, m.c.width, "…")
	}
	turn := func(text string) string { return s.Label.Render(ansi.Truncate(text, m.c.width, "")) }
	return pages(lines, m.c.layout.Body, turn)
}

// termLines are terms, the labels in a column of their own (as wide as
// the labels up to maxLabel) and each meaning wrapped beside its label;
// a longer label, or a window that leaves its meanings under 40 columns,
// has its meaning under it.
func (m *Model) termLines(terms []Term) []string {
	const maxLabel = 36
	s := m.c.styles
	labelW := 0
	for _, t := range terms {
		if w := draw.Width(t.Label) + 2; w <= maxLabel {
			labelW = max(labelW, w)
		}
	}
	var lines []string
	for _, t := range terms {
		if m.c.width-labelW < 40 || draw.Width(t.Label)+2 > labelW {
			lines = append(lines, s.Status.Render(t.Label+":")) // a label alone on its line, not a figure cut short
			for _, l := range wrapAtSpaces(t.Means, m.c.width-2) {
				lines = append(lines, s.Label.Render("  "+l))
			}
			continue
		}
		for k, l := range wrapAtSpaces(t.Means, m.c.width-labelW) {
			label := ""
			if k == 0 {
				label = t.Label
			}
			lines = append(lines, s.Status.Render(format.PadRight(label, labelW))+s.Label.Render(l))
		}
	}
	return lines
}

// wrapAtSpaces wraps s at its spaces only ("voice-ready" stays one word)
// to lines of width; a word longer than width has a line of its own.
func wrapAtSpaces(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && draw.Width(line)+1+draw.Width(w) > width {
			lines, line = append(lines, line), ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// pages splits lines into pages height lines high, each ending with how
// to turn to the next, the last with how to close (? closes it too).
func pages(lines []string, height int, turn func(string) string) [][]string {
	if height < 2 || len(lines) <= height {
		return [][]string{lines}
	}
	per := height - 1
	n := (len(lines) + per - 1) / per
	var out [][]string
	for k := 0; k < len(lines); k += per {
		page := slices.Clone(lines[k:min(k+per, len(lines))])
		if len(out) < n-1 {
			page = append(page, turn("? next page ("+itoa(len(out)+1)+"/"+itoa(n)+") · esc closes"))
		} else {
			page = append(page, turn("? or esc closes ("+itoa(n)+"/"+itoa(n)+")"))
		}
		out = append(out, page)
	}
	return out
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

// skippedNote is the header's short note on the providers left out of
// the session ("2 skipped: keys not set · ? lists them"; "" for none): a
// speaker who forgot an export sees it before the race, and the help page
// names each with why.
func (m *Model) skippedNote() string {
	skipped := m.c.config.Skipped
	if len(skipped) == 0 {
		return ""
	}
	why := "keys not set"
	for _, n := range skipped {
		if !strings.HasSuffix(n.Reason, "is not set") {
			why = ""
		}
	}
	if why == "keys not set" && len(skipped) == 1 {
		why = "key not set"
	}
	note := itoa(len(skipped)) + " skipped"
	if why != "" {
		note += ": " + why
	}
	return m.c.styles.Paused.Render(note) + m.c.styles.Label.Render(" · ? lists them")
}
