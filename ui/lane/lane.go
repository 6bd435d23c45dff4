// Package lane is one provider's pane of the race: its status, live figures,
// its race track toward the finish line every lane shares, a sparkline of
// its live tok/s against reading speed on the scale every lane shares, and
// its answer streaming in, word-wrapped and following the tail. Zoomed, the
// pane shows the whole answer in a scrollable viewport.
//
//	l := lane.New(provider, lane.DefaultStyles(p).WithAccent(color))
//	l.SetSize(60, 14)
//	l, _ = l.Update(lane.FrameMsg{Now: now, Figures: provider.Snapshot(now), Scale: scale, Finish: 400})
//	fmt.Println(l.View())
//
// Everything is rendered on FrameMsg (and on size or mode changes) and
// cached; View only returns the cached string.
package lane

import (
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
)

// FrameMsg asks the lane to show the race at Now (time since release), with
// the provider's figures at that moment and its finish place (1 = first to
// finish, 0 = not finished).
type FrameMsg struct {
	Now     time.Duration
	Figures live.Snapshot
	Place   int
	// Scale is the tok/s axis of the sparkline, shared by every lane
	// (live.SharedScale); the zero Scale scales the lane to itself.
	Scale live.Scale
	// Finish is the race track's finish line in per-user tokens
	// (live.FinishLine), and TrackWidth the width of every lane's track,
	// so one length means one distance in every lane (0: none, or the
	// lane's own width).
	Finish, TrackWidth int
	// Preparing is set while local servers start, before the first race.
	// Loading is then the provider's own server's progress ("loading
	// model… 3.2s"), or "" while it waits for the others.
	Preparing bool
	Loading   string
}

// Model is one lane.
type Model struct {
	KeyMap KeyMap
	styles Styles

	provider *live.Lane
	number   int // shown before the name: the key that zooms this lane
	width    int
	height   int
	focused  bool
	zoomed   bool
	figures  live.Snapshot
	place    int
	scale    live.Scale
	finish   int
	trackW   int

	preparing bool   // before the first race (FrameMsg)
	loading   string // the provider's server's progress meanwhile

	answer, reasoning       wrapper
	answerLen, reasoningLen int // bytes of the provider's text already wrapped
	following               int // the stream that text is from
	viewport                viewport.Model
	viewportText            int    // answerLen+reasoningLen when the viewport was filled
	viewportWidth           int    // and its width then
	viewportFailure         string // and the failure it showed
	viewportHidden          int    // and the hidden reasoning it told of
	drawn                   drawing
	top                     drawnEdge // the top border as last drawn
}

// New is a lane for provider p, numbered p.Index+1.
func New(p *live.Lane, styles Styles) Model {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{} // the lane's KeyMap drives it
	vp.MouseWheelEnabled = true
	m := Model{KeyMap: DefaultKeyMap(), styles: styles, provider: p, number: p.Index + 1,
		viewport: vp, viewportText: -1}
	m.render()
	return m
}

// SetSize sets the lane's outer size. Under four lines high the lane draws
// no border: a summary line, then the tail of the answer.
func (m *Model) SetSize(width, height int) {
	if width == m.width && height == m.height {
		return
	}
	m.width, m.height = max(width, 0), max(height, 0)
	m.render()
}

// SetFocused highlights the lane.
func (m *Model) SetFocused(focused bool) {
	if focused != m.focused {
		m.focused = focused
		m.render()
	}
}

// SetZoomed switches between the tail of the answer and the whole of it.
func (m *Model) SetZoomed(zoomed bool) {
	if zoomed != m.zoomed {
		m.zoomed = zoomed
		m.viewportText = -1
		m.render() // fills the viewport,
		m.viewport.GotoBottom()
		m.render() // then shows its tail
	}
}

// Update handles FrameMsg and, when zoomed, scrolling keys and the mouse wheel.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case FrameMsg:
		settled := msg.Figures == m.figures && msg.Place == m.place && msg.Figures.Settled &&
			msg.Scale == m.scale && msg.Finish == m.finish && msg.TrackWidth == m.trackW &&
			len(m.provider.Answer()) == m.answerLen && len(m.provider.Reasoning()) == m.reasoningLen
		if settled {
			break // nothing moved: keep the drawing
		}
		m.figures, m.place = msg.Figures, msg.Place
		m.scale, m.finish, m.trackW = msg.Scale, msg.Finish, msg.TrackWidth
		m.preparing, m.loading = msg.Preparing, msg.Loading
		m.render()
	case tea.KeyMsg:
		if !m.zoomed {
			break
		}
		switch {
		case key.Matches(msg, m.KeyMap.Up):
			m.viewport.ScrollUp(1)
		case key.Matches(msg, m.KeyMap.Down):
			m.viewport.ScrollDown(1)
		case key.Matches(msg, m.KeyMap.PageUp):
			m.viewport.PageUp()
		case key.Matches(msg, m.KeyMap.PageDown):
			m.viewport.PageDown()
		case key.Matches(msg, m.KeyMap.Top):
			m.viewport.GotoTop()
		case key.Matches(msg, m.KeyMap.Bottom):
			m.viewport.GotoBottom()
		default:
			return m, nil
		}
		m.render()
	case tea.MouseMsg:
		if m.zoomed {
			m.viewport, _ = m.viewport.Update(msg)
			m.render()
		}
	}
	return m, nil
}

// render lays the lane out at its size and caches it. A lane too small
// to show (hidden behind a zoomed one) draws nothing and wraps nothing.
func (m *Model) render() {
	if m.width < 8 || m.height < 1 {
		m.drawn = drawing{lines: make([]string, max(m.height, 1))}
		return
	}
	m.wrapNewText(m.width - 2)
	switch {
	case m.height < 4 && Strip(m.figures, m.provider): // the dashboard gives a strip StripRows lines
		m.drawn = drawing{lines: m.renderStrip()}
	case m.height < 4:
		m.drawn = drawing{lines: m.renderBare()}
	default:
		m.drawn = m.renderBox()
	}
}

// wrapNewText wraps the text that arrived since the last frame, or all of
// it again when the width changed.
func (m *Model) wrapNewText(width int) {
	if m.answer.width != width || m.following != m.provider.Following() {
		m.answer, m.reasoning = newWrapper(width), newWrapper(width)
		m.answerLen, m.reasoningLen = 0, 0
		m.following = m.provider.Following()
		m.viewportText = -1
	}
	answer, reasoning := m.provider.Answer(), m.provider.Reasoning()
	m.answer.Append(answer[m.answerLen:])
	m.reasoning.Append(reasoning[m.reasoningLen:])
	m.answerLen, m.reasoningLen = len(answer), len(reasoning)
}

// renderBare is the borderless lane of a tiny terminal: one summary line,
// then as much of the answer's tail as fits. A failed lane of one line says
// why on it, where its speed would be: the line under it is not there.
func (m *Model) renderBare() []string {
	head := m.styles.Title.Render(m.flaggedName()) + " " + m.status() + "  "
	if m.focused || m.zoomed {
		head = m.styles.FocusedBorder.Render("▸ ") + head
	}
	summary := head + m.speedField()
	if m.figures.Feel == metrics.FeelOneBurst { // why there is no speed: the border's badge is not there
		summary += "  " + m.styles.Stall.Render(metrics.FeelOneBurst)
	}
	if m.height == 1 && m.figures.Status == live.Failed {
		summary = head + m.styles.Error.Render(draw.Words(failureLine(m.figures), m.width-draw.Width(head)))
	}
	lines := []string{summary}
	lines = append(lines, m.textLines(m.width, m.height-1)...)
	return draw.Fit(lines, m.width, m.height)
}

// renderBox is the bordered lane.
func (m *Model) renderBox() drawing {
	iw, ih := m.width-2, m.height-2
	figureRows, sparkRows := 2, 0
	switch {
	case m.zoomed:
		figureRows, sparkRows = 3, min(4, max(ih-6, 0))
	case ih >= 16:
		sparkRows = 3
	case ih >= 10:
		sparkRows = 2
	case ih >= 5:
		sparkRows = 1
	case ih < 3:
		figureRows = 1
	}
	var body []string
	// Before the first race, and after a failure before any text, there is
	// nothing measured to show: the text says why.
	failedBeforeText := m.figures.Status == live.Failed && !m.figures.HasTTFT
	if !failedBeforeText && !m.preparing {
		body = draw.Flow(m.figureFields(), iw, figureRows)
		if m.provider.Detail != "" && ih >= 6 {
			body = append(body, m.styles.Label.Render(format.Truncate(m.provider.Detail, iw, "…")))
		}
		if m.finish > 0 && ih >= 4 && !m.toolOnly() {
			body = append(body, m.trackLine(iw))
		}
		if line := m.networkLine(iw); m.zoomed && line != "" {
			body = append(body, line)
		}
		if events := m.provider.Streams[0].Events; m.zoomed && events.Len() > 0 && ih >= 10 {
			body = append(body, m.styles.Label.Render("chunks    ")+m.styles.Value.Render(ChunkStrip(events, iw-10)))
			if ih >= 12 { // the gap strip under the chunk strip, cell for cell, where the text keeps room
				body = append(body, m.styles.Label.Render("gaps, log ")+GapStrip(events, iw-10, m.styles.Value, m.styles.Stall))
			}
		}
		if sparkRows > 0 && !m.toolOnly() {
			body = append(body, m.sparkLines(iw, sparkRows)...)
		}
	}
	if m.zoomed { // the referee's flags, each with its evidence: what the ⚑ in the title means, a failed lane's too (retried, rate_limited)
		body = append(body, m.flagLines(iw, ih)...)
	}
	textRows := max(ih-len(body), 0)
	if m.zoomed {
		body = append(body, m.viewportLines(iw, textRows)...)
	} else {
		body = append(body, m.textLines(iw, textRows)...)
	}

	// The focused lane's border is thick as well as coloured, so it shows
	// without colour too.
	border, b := m.styles.Border, lipgloss.RoundedBorder()
	if m.focused || m.zoomed {
		border, b = m.styles.FocusedBorder, lipgloss.ThickBorder()
	}
	top := m.topEdge(border, b, iw)
	elapsed := ""
	if !m.preparing {
		elapsed = m.styles.Label.Render(format.Duration(m.figures.Elapsed))
	}
	bottom := draw.Edge(border, b.BottomLeft, b.Bottom, b.BottomRight, m.badges(iw-draw.Width(elapsed)-6), elapsed, m.width)

	return boxDrawing(top, body, iw, ih, bottom, border.Render(b.Left))
}

// topEdge is the top border: the title and the status, drawn again only
// when one of them, the width or the focus changed (a few times a race,
// where the lane is drawn twenty times a second).
func (m *Model) topEdge(border draw.Paint, b lipgloss.Border, iw int) string {
	status := m.status()
	key := edgeKey{status: status, flags: m.figures.Flags, width: m.width, focused: m.focused || m.zoomed}
	if m.top.line == "" || m.top.key != key {
		title := m.title(iw - draw.Width(status) - 6)
		m.top = drawnEdge{key: key, line: draw.Edge(border, b.TopLeft, b.Top, b.TopRight, title, status, m.width)}
	}
	return m.top.line
}

// flaggedName is the lane's number and name, and ⚑ when the referee raised
// a flag on one of its streams (metrics.StreamFlags): the zoomed lane and
// the help page say why.
func (m *Model) flaggedName() string {
	name := itoa(m.number) + " " + m.provider.Name
	if m.figures.Flags != "" {
		name += " ⚑"
	}
	return name
}

// title is the lane's number, name (⚑ when the referee flagged one of its
// streams: metrics.StreamFlags) and model in at most width cells: the
// model shortened (format.Model) or left out before the name is cut, so
// the status beside it always shows. A model cut to under 10 cells says
// nothing and is left out.
func (m *Model) title(width int) string {
	name := m.flaggedName()
	room := width - draw.Width(name) - 1
	if model := format.Model(m.provider.Model, room); model != "" && (room >= 10 || model == m.provider.Model) {
		return m.styles.Title.Render(name) + " " + m.styles.Model.Render(model)
	}
	return m.styles.Title.Render(format.Truncate(name, max(width, 1), "…"))
}

func itoa(n int) string { return strconv.Itoa(n) }
