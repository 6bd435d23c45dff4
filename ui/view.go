package ui

import (
	"cmp"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/lane"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/live"
	"tpsrace/ui/speedchart"
)

// The view: the layout, a frame of every pane and the screen composed of
// them. The model calls these from Update; View returns m.screen.

// relayout recomputes the layout and sizes every pane. The line under the
// header (skipped providers, or a broken recording's truncation) is taken
// off the window first.
func (m *Model) relayout() {
	m.skipped = ""
	if m.height >= minSkippedHeight {
		m.skipped = cmp.Or(m.skippedLine(), m.truncationLine())
	}
	notes := 0
	if m.skipped != "" {
		notes = 1
	}
	m.layout = ComputeLayout(m.width, m.height-notes, len(m.lanes), m.zoomed(), 1)
	l := m.layout
	if m.mode == modeHelp {
		m.page = m.helpPage()
	}
	for i := range m.lanes {
		w, h := 0, 0
		switch {
		case l.Zoomed:
			if i == m.zoom {
				w, h = l.Widths[0], l.Rows[0]-m.statsRows()
			}
		case l.List:
			w, h = l.Widths[0], l.Rows[i]
		case l.Cols > 0:
			w, h = l.LaneSize(i)
		}
		m.lanes[i].SetSize(w, h)
	}
	m.board.SetSize(l.Board.Width, l.Board.Height)
	m.chart.SetSize(l.Chart.Width, l.Chart.Height)
	m.editor.SetWidth(max(m.width-4, 10))
	m.editor.SetHeight(max(l.Body-5, 1))
}

// refresh draws a frame: every provider's figures at the race time on
// screen, pushed to the lanes, the leaderboard and the chart.
func (m *Model) refresh() {
	now := m.s.now()
	figs := m.s.figures(now)
	if m.opts.Present {
		m.stage = m.presentBody(figs, m.width, m.layout.Body)
		m.compose()
		return
	}
	places := leaderboard.Places(figs)
	scale := live.SharedScale(m.s.live, now)
	finish := live.FinishLine(m.opts.FinishAt, m.s.maxTokens, figs)
	preparing := m.s.phase == phasePreparing
	var loading []string
	if preparing {
		loading = m.prep.progress()
	}
	for i := range m.lanes {
		frame := lane.FrameMsg{Now: now, Figures: figs[i], Place: places[i], Scale: scale,
			Finish: finish, TrackWidth: m.layout.NarrowestLane() - 2, Preparing: preparing}
		if i < len(loading) {
			frame.Loading = loading[i]
		}
		m.lanes[i], _ = m.lanes[i].Update(frame)
	}
	m.board, _ = m.board.Update(leaderboard.FrameMsg{Figures: figs, Finish: finish})
	if m.layout.Chart.Show {
		m.chart, _ = m.chart.Update(speedchart.FrameMsg{Until: now, Providers: m.s.live, Finish: finish, Scale: scale})
	}
	m.compose()
}

func (m *Model) helpKeys() help.KeyMap {
	switch {
	case m.mode == modeEditor:
		return m.editorKeys
	case m.zoomed():
		return zoomedKeys{KeyMap: m.keys, lane: m.lanes[m.zoom].KeyMap}
	case m.opts.Replay != nil:
		return replayKeys{m.replayKeys, m.keys}
	case m.opts.Present:
		return presentKeys{m.keys}
	}
	return m.keys
}

// paints are the root styles the header and the presenter draw with on
// every frame, as escape sequences taken once (draw.Paint).
type paints struct{ Title, Simulated, Status, Paused, Label, Prompt draw.Paint }

func newPaints(s Styles) paints {
	p := draw.NewPaint
	return paints{Title: p(s.Title), Simulated: p(s.Simulated), Status: p(s.Status), Paused: p(s.Paused), Label: p(s.Label), Prompt: p(s.Prompt)}
}

// minSkippedHeight is the least window height that shows the skipped line.
const minSkippedHeight = 12

// compose joins the cached panes into the screen.
func (m *Model) compose() {
	l := m.layout
	if m.width <= 0 || m.height <= 0 {
		m.screen = ""
		return
	}
	// Lines are cut to the width, except the panes' own: the layout sized
	// them, and a frame need not measure them again.
	cut := func(lines []string) []string {
		for i, line := range lines {
			lines[i] = ansi.Truncate(line, m.width, "")
		}
		return lines
	}
	lines := cut(m.header())
	if m.skipped != "" {
		lines = append(lines, m.skipped)
	}
	var body []string
	switch {
	case m.mode == modeEditor:
		body = cut(m.editorLines())
	case m.mode == modeHelp:
		body = m.page
	case m.opts.Present:
		body = cut(slices.Clone(m.stage))
	case l.Zoomed:
		body = splitLines(m.lanes[m.zoom].View())
		if m.statsRows() > 0 {
			body = append(body, " "+m.stats.View())
		}
	default:
		body = append(m.laneLines(), m.bottomLines()...)
	}
	lines = append(lines, body[:min(len(body), l.Body)]...)
	for len(lines) < m.height-l.Footer {
		lines = append(lines, "")
	}
	lines = append(lines, ansi.Truncate(m.footerLine(), m.width, ""))
	m.screen = strings.Join(lines[:m.height], "\n")
}

// status is the header's word for the race's phase.
func (m *Model) status() string {
	switch m.s.phase {
	case phasePreparing:
		return "starting local servers"
	case phaseCountdown, phaseStarting:
		return "starting"
	case phaseRacing:
		return "racing " + format.Duration(m.s.now())
	case phaseFinished:
		if rp := m.opts.Replay; rp != nil && rp.Cut { // the recording broke before the race ended
			return "incomplete"
		}
		return "finished in " + format.Duration(m.s.end)
	case phaseStopped:
		return "stopped"
	}
	return ""
}

func (m *Model) header() []string {
	s := m.paint
	sep := s.Label.Render(" · ")
	var parts []string
	if status := m.status(); status != "" {
		parts = append(parts, s.Status.Render(status))
	}
	conc := "C=" + itoa(m.s.conc)
	if m.s.concurrency != m.s.conc {
		conc += s.Paused.Render(" (next " + itoa(m.s.concurrency) + ")")
	}
	parts = append(parts, s.Label.Render(itoa(len(m.lanes))+" providers ")+s.Status.Render(conc))
	if skew, ok := m.s.startSkew(); ok {
		parts = append(parts, s.Label.Render("start skew ")+s.Status.Render(format.Precise(skew)))
	}
	if m.opts.Note != "" {
		parts = append(parts, s.Label.Render(m.opts.Note))
	}
	if m.paused {
		parts = append(parts, s.Paused.Render("⏸ PAUSED"))
	}
	if m.opts.Replay != nil {
		parts = append([]string{m.replayStatus()}, parts...)
	}
	if h := m.heatStatus(); h != "" {
		parts = append(parts, h)
	}
	rest := strings.Join(parts, sep)
	title := s.Title.Render("tpsrace")
	if m.opts.Config.Simulated {
		// The banner must never be cut: shorter words before a cut.
		var banner string
		for _, words := range []string{" SIMULATED providers — no API keys found ", " SIMULATED — no API keys ", " SIMULATED "} {
			banner = s.Simulated.Render(words)
			if draw.Width(banner)+draw.Width(rest)+13 <= m.width {
				break
			}
		}
		title += sep + banner
	}
	title += sep + rest
	// The prompt is cut to the line, with "…" to say so.
	lead, limit := s.Label.Render("prompt "), s.Label.Render(" · max "+itoa(m.s.maxTokens)+" tokens")
	room := m.width - draw.Width(lead) - draw.Width(limit)
	if m.layout.Header < 2 {
		room -= draw.Width(title + sep)
	}
	prompt := lead + s.Prompt.Render(ansi.Truncate(oneLine(m.s.prompt), max(room, 1), "…")) + limit
	if m.layout.Header < 2 {
		return []string{title + sep + prompt}
	}
	return []string{title, prompt}
}

// laneLines lays the lanes out in the layout's grid (or list).
func (m *Model) laneLines() []string {
	l := m.layout
	if l.List {
		var lines []string
		for i := range m.lanes {
			if l.Rows[i] > 0 {
				lines = append(lines, splitLines(m.lanes[i].View())...)
			}
		}
		return lines
	}
	var lines []string
	for row := 0; row*l.Cols < len(m.lanes); row++ {
		var views [][]string
		for i := row * l.Cols; i < min((row+1)*l.Cols, len(m.lanes)); i++ {
			views = append(views, splitLines(m.lanes[i].View()))
		}
		for k := range l.Rows[row] {
			var sb strings.Builder
			for _, v := range views {
				if k < len(v) {
					sb.WriteString(v[k])
				}
			}
			lines = append(lines, sb.String())
		}
	}
	return lines
}

// bottomLines is the leaderboard, with the chart beside or above it.
func (m *Model) bottomLines() []string {
	l := m.layout
	if !l.Board.Show {
		return nil
	}
	board := splitLines(m.board.View())
	if !l.Chart.Show {
		return board
	}
	chart := splitLines(m.chart.View())
	if !l.SideBySide {
		return append(chart, board...)
	}
	lines := make([]string, max(len(board), len(chart)))
	for k := range lines {
		b, c := "", ""
		if k < len(board) {
			b = board[k]
		}
		if k < len(chart) {
			c = chart[k]
		}
		lines[k] = format.PadRight(b, l.Board.Width) + c
	}
	return lines
}

func (m *Model) editorLines() []string {
	title := m.styles.Title.Render("Edit the prompt") + m.styles.Label.Render(" — every provider gets it at the same instant")
	box := m.styles.Editor.Width(max(m.width-2, 10)).Render(title + "\n\n" + m.editor.View())
	return splitLines(box)
}

// oneLine shows a multi-line prompt on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func splitLines(s string) []string { return strings.Split(s, "\n") }

func itoa(n int) string { return format.Count(n) }
