package ui

import (
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/lane"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/live"
	"tpsrace/ui/speedchart"
	"tpsrace/ui/workloadview"
)

// The view: the layout, a frame of every pane and the screen composed of
// them. The model calls these from Update; View joins m.drawn.rows.

// relayout recomputes the layout and sizes every pane. The line under the
// header (skipped providers, or a broken recording's truncation) is taken
// off the window first.
func (m *Model) relayout() {
	m.drawn.skipped = ""
	if m.c.height >= minSkippedHeight && m.replay != nil {
		m.drawn.skipped = m.replay.truncationLine()
	}
	notes := 0
	if m.drawn.skipped != "" {
		notes = 1
	}
	headline := 1
	if m.c.opts.Heats >= 2 {
		headline = 2 // the verdict over the heats under the race's
	}
	m.drawn.strips = m.drawn.strips[:0]
	for i := range m.lanes {
		m.drawn.strips = append(m.drawn.strips, m.lanes[i].StripRows(m.c.width))
	}
	m.c.layout = ComputeLayout(m.c.width, m.c.height-notes, len(m.lanes), m.drawn.strips, m.zoomed(), 1, headline, m.panelRows())
	l := m.c.layout
	if m.state == stateHelp {
		m.drawn.pages = m.helpPages()
		m.drawn.helpAt = min(m.drawn.helpAt, len(m.drawn.pages)-1)
	}
	boxed := 0 // lane i's place in the grid or list
	for i := range m.lanes {
		w, h := 0, 0
		switch {
		case l.Zoomed:
			if i == m.zoom {
				w, h = l.Widths[0], l.Rows[0]-m.statsRows()
			}
		case m.strip(i):
			w, h = l.Width, m.drawn.strips[i]
		case l.List:
			w, h = l.Widths[0], l.Rows[boxed]
		case l.Cols > 0:
			w, h = l.LaneSize(boxed)
		}
		if !m.strip(i) {
			boxed++
		}
		m.lanes[i].SetSize(w, h)
	}
	m.board.SetSize(l.Board.Width, l.Board.Height)
	m.board.SetHeadline(l.Headline, l.Width)
	m.chart.SetSize(l.Chart.Width, l.Chart.Height)
	m.panel.SetSize(l.Panel.Width, l.Panel.Height)
	m.editor.setSize(l.Body)
}

// refresh draws a frame: every provider's figures at the race time on
// screen, pushed to the lanes, the leaderboard and the chart.
func (m *Model) refresh() {
	now := m.s.now()
	figs := m.s.figures(now)
	if m.present != nil {
		m.present.draw(m.s, figs, m.c.width, m.c.layout.Body)
		m.compose()
		return
	}
	places := leaderboard.Places(figs)
	scale := live.SharedScale(m.s.live, now)
	finish := live.FinishLine(m.c.opts.FinishAt, m.s.maxTokens, figs)
	preparing := m.s.phase == phasePreparing
	var loading []string
	if preparing {
		loading = m.prep.progress()
	}
	frame := lane.FrameMsg{Now: now, Scale: scale, Finish: finish, Preparing: preparing}
	m.drawLanes(frame, figs, places, loading)
	if m.restrip() { // a lane became a strip: the others draw at their new widths this frame
		m.drawLanes(frame, figs, places, loading)
	}
	m.board, _ = m.board.Update(leaderboard.FrameMsg{Figures: figs, Finish: finish, Ended: m.s.phase.ended()})
	if m.c.layout.Chart.Show {
		m.chart, _ = m.chart.Update(speedchart.FrameMsg{Until: now, Providers: m.s.live, Finish: finish, Scale: scale, Timeline: timeline(figs)})
	}
	if m.c.layout.Panel.Show {
		m.panel, _ = m.panel.Update(workloadview.FrameMsg{Figures: m.panelFigures(figs)})
	}
	m.compose()
}

// drawLanes hands every lane this frame: frame with the lane's own figures,
// place and loading line, and the track width of the layout as it stands.
func (m *Model) drawLanes(frame lane.FrameMsg, figs []live.Snapshot, places []int, loading []string) {
	frame.TrackWidth = m.c.layout.NarrowestLane() - 2
	for i := range m.lanes {
		frame.Figures, frame.Place, frame.Loading = figs[i], places[i], ""
		if i < len(loading) {
			frame.Loading = loading[i]
		}
		m.lanes[i], _ = m.lanes[i].Update(frame)
	}
}

func (m *Model) helpKeys() help.KeyMap {
	switch {
	case m.state == stateEditor:
		return m.editor.keys
	case m.zoomed():
		return zoomedKeys{KeyMap: m.c.keys, lane: m.lanes[m.zoom].KeyMap}
	case m.replay != nil:
		return replayKeys{m.replay.keys, m.c.keys}
	case m.present != nil:
		return presentKeys{m.c.keys}
	}
	return m.c.keys
}

// paints are the root styles the header and the presenter draw with on
// every frame, as escape sequences taken once (draw.Paint).
type paints struct{ Title, Simulated, Status, Paused, Label, Prompt draw.Paint }

func newPaints(s Styles) paints {
	p := draw.NewPaint
	return paints{Title: p(s.Title), Simulated: p(s.Simulated), Status: p(s.Status), Paused: p(s.Paused), Label: p(s.Label), Prompt: p(s.Prompt)}
}

// minSkippedHeight is the least window height that shows a broken
// recording's truncation line.
const minSkippedHeight = 12

// compose joins the cached panes into the screen.
func (m *Model) compose() {
	l := m.c.layout
	if m.c.width <= 0 || m.c.height <= 0 {
		m.drawn.rows = nil
		return
	}
	// Lines are cut to the width, except the panes' own: the layout sized
	// them, and a frame need not measure them again.
	cut := func(lines []string) []string {
		for i, line := range lines {
			lines[i] = format.Truncate(line, m.c.width, "")
		}
		return lines
	}
	lines := cut(m.header())
	if m.drawn.skipped != "" {
		lines = append(lines, m.drawn.skipped)
	}
	var body []string
	switch {
	case m.state == stateEditor:
		body = cut(m.editor.View())
	case m.state == stateHelp:
		body = m.drawn.pages[m.drawn.helpAt]
	case m.present != nil:
		body = cut(slices.Clone(m.present.View()))
	case l.Zoomed:
		body = splitLines(m.lanes[m.zoom].View())
		if m.statsRows() > 0 {
			body = append(body, " "+m.stats.View())
		}
	default:
		body = append(m.laneLines(), m.bottomLines()...)
	}
	lines = append(lines, body[:min(len(body), l.Body)]...)
	for len(lines) < m.c.height-l.Footer {
		lines = append(lines, "")
	}
	lines = append(lines, format.Truncate(m.footerLine(), m.c.width, ""))
	m.drawn.rows = lines[:m.c.height]
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
		if m.replay != nil && m.replay.rp.Cut { // the recording broke before the race ended
			return "incomplete"
		}
		if m.replay != nil && m.replay.rp.Interrupted { // the user stopped it before it ended
			return "stopped at " + format.Duration(m.s.end)
		}
		return "finished in " + format.Duration(m.s.end)
	case phaseStopped:
		return "stopped"
	}
	return ""
}

// The header's parts give way whole when the window is narrow, least
// important first (the highest rank): a figure is shown whole or not at
// all. The title, SIMULATED and REPLAY never give way; then, in order of
// what is dropped last: the race's status, the skipped providers' note (a
// forgotten export shows before the race), the heat and PAUSED, the
// replay's speed, the providers and concurrency, the caller's note, when
// a replay was recorded, and the start skew first.
const (
	rankTitle = iota
	rankStatus
	rankSkipped
	rankHeat
	rankSpeed
	rankProviders
	rankNote
	rankRecorded
	rankSkew
)

// minPrompt is the least room for the prompt's text beside "max N tokens":
// below it the limit gives way.
const minPrompt = 12

func (m *Model) header() []string {
	s := m.c.paint
	sep := s.Label.Render(" · ")
	segs := []draw.Segment{{Text: s.Title.Render("tpsrace"), Rank: rankTitle}}
	var parts []draw.Segment
	if m.replay != nil {
		parts = append(parts, m.replay.View()...)
	}
	if status := m.status(); status != "" {
		parts = append(parts, draw.Segment{Text: s.Status.Render(status), Rank: rankStatus})
	}
	conc := "C=" + itoa(m.s.conc)
	if m.s.concurrency != m.s.conc {
		conc += s.Paused.Render(" (next " + itoa(m.s.concurrency) + ")")
	}
	parts = append(parts, draw.Segment{Text: s.Label.Render(format.Plural(len(m.lanes), "provider")+" ") + s.Status.Render(conc), Rank: rankProviders})
	if skew, ok := m.s.startSkew(); ok {
		parts = append(parts, draw.Segment{Text: s.Label.Render("start skew ") + s.Status.Render(skew.String()), Rank: rankSkew})
	}
	if m.c.opts.Note != "" {
		parts = append(parts, draw.Segment{Text: s.Label.Render(m.c.opts.Note), Rank: rankNote})
	}
	// Presenter mode never shows the room who was skipped: every skipped
	// provider was said on stderr before the dashboard started (cli).
	if note := m.skippedNote(); note != "" && m.present == nil {
		parts = append(parts, draw.Segment{Text: note, Rank: rankSkipped})
	}
	if m.paused {
		parts = append(parts, draw.Segment{Text: s.Paused.Render("⏸ PAUSED"), Rank: rankHeat})
	}
	if h := m.heatStatus(); h != "" {
		parts = append(parts, draw.Segment{Text: h, Rank: rankHeat})
	}
	// A simulated race (config.Config.Simulated) has its banner, which never
	// gives way: shorter words when the rest needs the room. It says what is
	// true of the race, never why it is simulated: no keys, --simulated
	// given, a file's sim: models, or a replay of one.
	ps := m.c.config.Providers
	if banners := draw.SimulatedBanners(config.SimulatedCount(ps), len(ps)); banners != nil {
		rest := draw.Join(parts, sep, math.MaxInt)
		var banner string
		for _, words := range banners {
			banner = s.Simulated.Render(words)
			if draw.Width(banner)+draw.Width(rest)+13 <= m.c.width {
				break
			}
		}
		segs = append(segs, draw.Segment{Text: banner, Rank: rankTitle})
	}
	title := draw.Join(append(segs, parts...), sep, m.c.width)
	// The prompt is cut to the line, with "…" to say so; "max N tokens"
	// gives way whole when the prompt would keep too little.
	lead, limit := s.Label.Render("prompt "), s.Label.Render(" · max "+format.Plural(m.s.maxTokens, "token"))
	room := m.c.width - draw.Width(lead)
	if m.c.layout.Header < 2 {
		room -= draw.Width(title + sep)
	}
	if room-draw.Width(limit) >= minPrompt {
		room -= draw.Width(limit)
	} else {
		limit = ""
	}
	prompt := lead + s.Prompt.Render(format.Truncate(oneLine(m.s.prompt), max(room, 1), "…")) + limit
	if m.c.layout.Header < 2 {
		if room < 1 {
			return []string{title}
		}
		return []string{title + sep + prompt}
	}
	return []string{title, prompt}
}

// laneLines lays the lanes out in the layout's grid (or list), then the
// strips under them.
func (m *Model) laneLines() []string {
	var boxed, strips []*lane.Model
	for i := range m.lanes {
		if m.strip(i) {
			strips = append(strips, &m.lanes[i])
		} else {
			boxed = append(boxed, &m.lanes[i])
		}
	}
	lines := m.gridLines(boxed)
	for _, l := range strips {
		lines = appendLane(lines, l)
	}
	return lines
}

// appendLane appends every line of l, a lane on rows of its own.
func appendLane(lines []string, l *lane.Model) []string {
	cells := []*lane.Model{l}
	for k := range l.Height() {
		lines = append(lines, laneRow(cells, k))
	}
	return lines
}

// gridLines lays the lanes that are not strips out in the layout's grid
// (or list).
func (m *Model) gridLines(lanes []*lane.Model) []string {
	l := m.c.layout
	var lines []string
	if l.List {
		for i, ln := range lanes {
			if l.Rows[i] > 0 {
				lines = appendLane(lines, ln)
			}
		}
		return lines
	}
	for row := 0; row*l.Cols < len(lanes); row++ {
		cells := lanes[row*l.Cols : min((row+1)*l.Cols, len(lanes))]
		for k := range l.Rows[row] {
			lines = append(lines, laneRow(cells, k))
		}
	}
	return lines
}

// laneRow is line k of every lane of cells, side by side, written into
// one string sized once: the screen's lines are made anew each frame.
func laneRow(cells []*lane.Model, k int) string {
	size := 0
	for _, c := range cells {
		size += c.LineLen(k)
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, c := range cells {
		c.WriteLine(&sb, k)
	}
	return sb.String()
}

// bottomLines is the workload panel, then the leaderboard with the chart
// beside or above it.
func (m *Model) bottomLines() []string {
	l := m.c.layout
	if !l.Board.Show {
		return nil
	}
	var panel []string
	if l.Panel.Show {
		panel = splitLines(m.panel.View())
	}
	board := m.board.Lines()
	if !l.Chart.Show {
		return append(panel, board...)
	}
	chart := m.chart.Lines()
	if !l.SideBySide {
		return append(append(panel, chart...), board...)
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
	return append(panel, lines...)
}

// oneLine shows a multi-line prompt on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func splitLines(s string) []string { return strings.Split(s, "\n") }

func itoa(n int) string { return format.Count(n) }
