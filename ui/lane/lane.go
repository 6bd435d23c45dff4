// Package lane is one provider's pane of the race: its status, live figures,
// its race track toward the finish line every lane shares, a sparkline of
// its live tok/s against reading speed on the scale every lane shares, and
// its answer streaming in, word-wrapped and following the tail. Zoomed, the
// pane shows the whole answer in a scrollable viewport.
//
//	l := lane.New(provider, lane.DefaultStyles(p).WithAccent(color))
//	l.SetSize(60, 14)
//	l, _ = l.Update(lane.FrameMsg{Now: now, Figures: provider.Figures(now), Scale: scale, Finish: 400})
//	fmt.Println(l.View())
//
// Everything is rendered on FrameMsg (and on size or mode changes) and
// cached; View only returns the cached string.
package lane

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

// KeyMap scrolls a zoomed lane.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// DefaultKeyMap is the lane's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " ", "f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "follow the tail")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down, k.Bottom} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// Styles of a lane. WithAccent gives a lane its provider's colour.
type Styles struct {
	Border, FocusedBorder lipgloss.Style
	Title                 lipgloss.Style // provider name
	Model                 lipgloss.Style
	Label                 lipgloss.Style // "TTFT", "tok/s"
	Value                 lipgloss.Style // the figures
	Waiting, Thinking     lipgloss.Style // statuses
	Streaming, Done       lipgloss.Style
	Failed                lipgloss.Style
	Answer                lipgloss.Style
	Reasoning             lipgloss.Style
	Note                  lipgloss.Style // "waiting for the first token…", "thought for…"
	Error                 lipgloss.Style
	Spark                 lipgloss.Style
	Track                 lipgloss.Style // the empty part of the race track, and its finish line
	Queued                lipgloss.Style // "48 queued"
	ReadingMarker         lipgloss.Style
	Slow, Conversational  lipgloss.Style // feel badges
	VoiceReady            lipgloss.Style
	Places                [3]lipgloss.Style // 1st, 2nd, 3rd to finish
}

// DefaultStyles are built from palette p.
func DefaultStyles(p theme.Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	return Styles{
		Border:         fg(p.Border),
		FocusedBorder:  fg(p.Focus).Bold(true),
		Title:          fg(p.Text).Bold(true),
		Model:          fg(p.Muted),
		Label:          fg(p.Muted),
		Value:          fg(p.Text).Bold(true),
		Waiting:        fg(p.Muted),
		Thinking:       fg(p.Thinking),
		Streaming:      fg(p.Live).Bold(true),
		Done:           fg(p.Good).Bold(true),
		Failed:         fg(p.Bad).Bold(true),
		Answer:         fg(p.Text).Bold(p.Bold),
		Reasoning:      fg(p.Faint).Italic(true),
		Note:           fg(p.Muted).Italic(true),
		Error:          fg(p.Bad),
		Spark:          fg(p.Live),
		Track:          fg(p.Faint),
		Queued:         fg(p.Warn).Bold(true),
		ReadingMarker:  fg(p.Warn),
		Slow:           fg(p.Bad),
		Conversational: fg(p.Thinking),
		VoiceReady:     fg(p.Good),
		Places:         [3]lipgloss.Style{fg(p.Gold).Bold(true), fg(p.Silver).Bold(true), fg(p.Bronze).Bold(true)},
	}
}

// paints are the lane's Styles as escape sequences, taken once in New.
type paints struct {
	Border, FocusedBorder, Title, Model, Label, Value    draw.Paint
	Waiting, Thinking, Streaming, Done, Failed           draw.Paint
	Answer, Reasoning, Note, Error, Spark, Track, Queued draw.Paint
	ReadingMarker, Slow, Conversational, VoiceReady      draw.Paint
	Places                                               [3]draw.Paint
}

func newPaints(s Styles) paints {
	p := draw.NewPaint
	return paints{
		Border: p(s.Border), FocusedBorder: p(s.FocusedBorder), Title: p(s.Title), Model: p(s.Model), Label: p(s.Label), Value: p(s.Value),
		Waiting: p(s.Waiting), Thinking: p(s.Thinking), Streaming: p(s.Streaming), Done: p(s.Done), Failed: p(s.Failed),
		Answer: p(s.Answer), Reasoning: p(s.Reasoning), Note: p(s.Note), Error: p(s.Error), Spark: p(s.Spark), Track: p(s.Track), Queued: p(s.Queued),
		ReadingMarker: p(s.ReadingMarker), Slow: p(s.Slow), Conversational: p(s.Conversational), VoiceReady: p(s.VoiceReady),
		Places: [3]draw.Paint{p(s.Places[0]), p(s.Places[1]), p(s.Places[2])},
	}
}

// WithAccent colours the title and the sparkline.
func (s Styles) WithAccent(c lipgloss.TerminalColor) Styles {
	s.Title = s.Title.Foreground(c)
	s.Spark = s.Spark.Foreground(c)
	return s
}

// FrameMsg asks the lane to show the race at Now (time since release), with
// the provider's figures at that moment and its finish place (1 = first to
// finish, 0 = not finished).
type FrameMsg struct {
	Now     time.Duration
	Figures live.Figures
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
	Styles Styles // read by New
	paint  paints

	provider *live.Provider
	number   int // shown before the name: the key that zooms this lane
	width    int
	height   int
	focused  bool
	zoomed   bool
	figures  live.Figures
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
	viewportText            int // answerLen+reasoningLen when the viewport was filled
	viewportWidth           int // and its width then
	view                    string
}

// New is a lane for provider p, numbered p.Index+1.
func New(p *live.Provider, styles Styles) Model {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{} // the lane's KeyMap drives it
	vp.MouseWheelEnabled = true
	m := Model{KeyMap: DefaultKeyMap(), Styles: styles, paint: newPaints(styles), provider: p, number: p.Index + 1,
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

// View is the lane as last rendered.
func (m Model) View() string { return m.view }

// render lays the lane out at its size and caches it. A lane too small
// to show (hidden behind a zoomed one) draws nothing and wraps nothing.
func (m *Model) render() {
	if m.width < 8 || m.height < 1 {
		m.view = strings.Repeat("\n", max(m.height-1, 0))
		return
	}
	m.wrapNewText(m.width - 2)
	if m.height < 4 {
		m.view = m.renderBare()
	} else {
		m.view = m.renderBox()
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
// then as much of the answer's tail as fits.
func (m *Model) renderBare() string {
	summary := m.paint.Title.Render(itoa(m.number)+" "+m.provider.Name) + " " + m.status() + "  " + m.speedField()
	if m.focused || m.zoomed {
		summary = m.paint.FocusedBorder.Render("▸ ") + summary
	}
	lines := []string{summary}
	lines = append(lines, m.textLines(m.width, m.height-1)...)
	return strings.Join(fit(lines, m.width, m.height), "\n")
}

// renderBox is the bordered lane.
func (m *Model) renderBox() string {
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
		body = flow(m.figureFields(), iw, figureRows)
		if m.provider.Detail != "" && ih >= 6 {
			body = append(body, m.paint.Label.Render(ansi.Truncate(m.provider.Detail, iw, "…")))
		}
		if m.finish > 0 && ih >= 4 {
			body = append(body, m.trackLine(iw))
		}
		if line := m.networkLine(); m.zoomed && line != "" {
			body = append(body, ansi.Truncate(line, iw, "…"))
		}
		if events := m.provider.Streams[0].Events; m.zoomed && events.Len() > 0 && ih >= 10 {
			body = append(body, m.paint.Label.Render("chunks   ")+m.paint.Value.Render(ChunkStrip(events, iw-9)))
		}
		if sparkRows > 0 {
			body = append(body, m.sparkLines(iw, sparkRows)...)
		}
	}
	textRows := max(ih-len(body), 0)
	if m.zoomed {
		body = append(body, m.viewportLines(iw, textRows)...)
	} else {
		body = append(body, m.textLines(iw, textRows)...)
	}

	// The focused lane's border is thick as well as coloured, so it shows
	// without colour too.
	border, b := m.paint.Border, lipgloss.RoundedBorder()
	if m.focused || m.zoomed {
		border, b = m.paint.FocusedBorder, lipgloss.ThickBorder()
	}
	status := m.status()
	title := m.title(iw - draw.Width(status) - 6)
	top := edge(border, b.TopLeft, b.Top, b.TopRight, title, status, m.width)
	elapsed := ""
	if !m.preparing {
		elapsed = m.paint.Label.Render(format.Duration(m.figures.Elapsed))
	}
	bottom := edge(border, b.BottomLeft, b.Bottom, b.BottomRight, m.badges(iw-draw.Width(elapsed)-6), elapsed, m.width)

	var sb strings.Builder
	sb.WriteString(top)
	side := border.Render(b.Left)
	for _, line := range fit(body, iw, ih) {
		sb.WriteString("\n" + side + line + side)
	}
	sb.WriteString("\n" + bottom)
	return sb.String()
}

// title is the lane's number, name and model in at most width cells: the
// model shortened (format.Model) or left out before the name is cut, so
// the status beside it always shows. A model cut to under 10 cells says
// nothing and is left out.
func (m *Model) title(width int) string {
	name := itoa(m.number) + " " + m.provider.Name
	room := width - draw.Width(name) - 1
	if model := format.Model(m.provider.Model, room); model != "" && (room >= 10 || model == m.provider.Model) {
		return m.paint.Title.Render(name) + " " + m.paint.Model.Render(model)
	}
	return m.paint.Title.Render(ansi.Truncate(name, max(width, 1), "…"))
}

// trackLine is the lane's race track: its per-user tokens so far as a bar
// toward the finish line (┃), on the scale every lane shares, and past
// the line the finish time once the provider is done.
func (m *Model) trackLine(width int) string {
	const suffixW = 10
	trackW := width - suffixW - 1
	if m.trackW > 0 {
		trackW = min(trackW, m.trackW-suffixW-1)
	}
	if trackW < 4 {
		return ""
	}
	f := m.figures
	filled := draw.Bar(live.Progress(f, m.finish), trackW)
	rest := trackW - draw.Width(filled)
	var suffix string
	switch {
	case f.StoppedShort(): // ended, but not at the line
		suffix = m.paint.Failed.Render("✗ " + format.Duration(f.Elapsed))
	case f.Status == live.Done:
		suffix = m.paint.Done.Render("✓ " + format.Duration(f.Elapsed))
	case f.Status == live.Failed:
		suffix = m.paint.Failed.Render("✗")
	default:
		if f.UserTokens > 0 {
			suffix = m.paint.Label.Render(format.Count(f.UserTokens) + " tok")
		}
	}
	return m.paint.Spark.Render(filled) + m.paint.Track.Render(strings.Repeat("·", rest)+"┃") + " " + suffix
}

// status is the lane's state in words, for the top border.
func (m *Model) status() string {
	f := m.figures
	switch {
	case m.loading != "":
		return m.paint.Thinking.Render("◌ loading")
	case m.preparing:
		return m.paint.Waiting.Render("◌ waiting")
	}
	switch f.Status {
	case live.Thinking:
		return m.paint.Thinking.Render("◆ thinking")
	case live.Streaming:
		return m.paint.Streaming.Render("▶ streaming")
	case live.Done:
		if f.StoppedShort() { // its place would reward writing less
			return m.paint.Failed.Render("✗ short " + itoa(f.UserTokens) + "/" + itoa(f.FinishAt))
		}
		if m.place >= 1 && m.place <= 3 {
			return m.paint.Places[m.place-1].Render("✓ " + format.Ordinal(m.place))
		}
		if m.place > 3 {
			return m.paint.Done.Render("✓ " + format.Ordinal(m.place))
		}
		return m.paint.Done.Render("✓ done")
	case live.Failed:
		if interrupted(f.Err) {
			return m.paint.Waiting.Render("■ stopped")
		}
		return m.paint.Failed.Render("✗ failed")
	}
	return m.paint.Waiting.Render("◌ waiting")
}

// speedField is the lane's headline speed: per-user output speed.
func (m *Model) speedField() string {
	f := m.figures
	label := "speed "
	if f.Streams > 1 {
		label = "per-user "
	}
	if !f.HasSpeed {
		return m.paint.Label.Render(label + format.Undefined)
	}
	return m.paint.Label.Render(label) + m.paint.Value.Render(format.TPS(f.Speed)) + m.paint.Label.Render(" tok/s")
}

// figureFields are the live figures, most important first, for flow.
func (m *Model) figureFields() []string {
	f := m.figures
	field := func(label, value, unit string) string {
		s := m.paint.Value.Render(value)
		if label != "" {
			s = m.paint.Label.Render(label+" ") + s
		}
		if unit != "" {
			s += m.paint.Label.Render(" " + unit)
		}
		return s
	}
	var fields []string
	switch {
	case f.HasTTFT && f.Streams > 1:
		fields = append(fields, field("TTFT p50", format.Duration(f.TTFT), "")+" "+field("max", format.Duration(f.TTFTMax), ""))
	case f.HasTTFT:
		fields = append(fields, field("TTFT", format.Duration(f.TTFT), ""))
	default:
		fields = append(fields, field("TTFT", format.Undefined, ""))
	}
	if f.Queued > 0 {
		fields = append(fields, m.paint.Queued.Render(itoa(f.Queued)+" queued"))
	}
	if f.HasTTFA && f.TTFA > f.TTFT {
		fields = append(fields, field("TTFA", format.Duration(f.TTFA), ""))
	}
	// With several streams "now" is the median of those streaming: none
	// streams between a queued stream's wait and its first token.
	if !f.Settled && f.HasTTFT && (f.Streams == 1 || f.NowTPS > 0) {
		fields = append(fields, field("now", format.TPS(f.NowTPS), "tok/s"))
	}
	fields = append(fields, m.speedField())
	if f.HasServerTPS {
		fields = append(fields, field("server", format.TPS(f.ServerTPS), "tok/s"))
	}
	if f.Streams > 1 {
		switch {
		case f.HasAggregateTPS:
			fields = append(fields, field("aggregate", format.TPS(f.AggregateTPS), "tok/s"))
		case !f.Settled && f.HasTTFT:
			fields = append(fields, field("aggregate now", format.TPS(f.NowAggregateTPS), "tok/s"))
		}
	}
	if m.zoomed && f.Settled && f.HasSpeed {
		fields = append(fields, field("", "≈"+format.TPS(metrics.WordsPerSecond(f.Speed)), "words/s"))
	}
	if f.Streams > 1 {
		fields = append(fields, field("", format.Count(f.Tokens), "tok/user"))
	} else {
		fields = append(fields, field("", format.Count(f.Tokens), "tok"))
	}
	if loop, ok := metrics.AgentLoop(f.TTFT, f.Speed); ok && f.HasSpeed {
		fields = append(fields, field(itoa(metrics.AgentCalls)+" agent calls", "≈"+format.Duration(loop), ""))
	}
	if f.Streams > 1 {
		fields = append(fields, m.paint.Label.Render(itoa(f.Streams)+" streams"))
	}
	return fields
}

// networkLine is where stream 0's time to first token went, apart from
// the model: its request leaving, DNS, connect and TLS (none on a reused
// connection, as with --warm), the first response byte; all since the
// release. "" until the stream has ended.
func (m *Model) networkLine() string {
	r := m.provider.Streams[0].Result
	if r == nil || r.Phases.FirstByte == 0 {
		return ""
	}
	p := r.Phases
	parts := []string{m.Styles.Label.Render("sent ") + m.Styles.Value.Render("+"+format.Precise(r.Sent))}
	for _, ph := range []struct {
		name string
		at   time.Duration
	}{{"DNS", p.DNS}, {"connect", p.Connected}, {"TLS", p.TLS}} {
		if ph.at > 0 {
			parts = append(parts, m.Styles.Label.Render(ph.name+" ")+m.Styles.Value.Render(format.Precise(ph.at)))
		}
	}
	if p.Connected == 0 {
		parts = append(parts, m.Styles.Label.Render("reused connection"))
	}
	parts = append(parts, m.Styles.Label.Render("first byte ")+m.Styles.Value.Render(format.Precise(p.FirstByte)))
	return m.Styles.Label.Render("network  ") + strings.Join(parts, m.Styles.Label.Render(" · "))
}

// badges go in the bottom border: how the speed feels, and how it
// compares with reading speed.
func (m *Model) badges(width int) string {
	f := m.figures
	if !f.HasSpeed {
		return ""
	}
	feel := metrics.Feel(f.Speed)
	style := map[string]draw.Paint{"slow": m.paint.Slow, "conversational": m.paint.Conversational, "voice-ready": m.paint.VoiceReady}[feel]
	badge := style.Render(feel)
	if r := f.Speed / metrics.ReadingTPS; r >= 1 {
		for _, words := range []string{" reading speed", " reading"} {
			reading := m.paint.ReadingMarker.Render(format.Times(r) + words)
			if draw.Width(badge)+2+draw.Width(reading) <= width {
				return badge + "  " + reading
			}
		}
	}
	return badge
}

// sparkLines draws per-user live tok/s from the release to now (or to the
// end) on the scale every lane shares (FrameMsg.Scale), with a dotted
// marker at reading speed where the bars stay below it, and the top and
// the marker labelled ("log" when the scale is logarithmic).
func (m *Model) sparkLines(width, rows int) []string {
	series := m.provider.Series(m.figures.Elapsed)
	scale := m.scale
	if scale.Top <= 0 {
		scale = live.SharedScale([]*live.Provider{m.provider}, m.figures.Elapsed)
	}
	topLabel := format.Short(scale.Top)
	if scale.Log {
		topLabel += " log"
	}
	gutter := max(6, len(topLabel)+1)
	sw := width - gutter
	if sw < 4 {
		return nil
	}
	columns := live.Resample(series, sw)
	eighths := make([]int, sw) // each column's height in eighths of a row
	for k, v := range columns {
		eighths[k] = int(math.Round(scale.Fraction(v) * float64(rows*8)))
	}
	markerRow := min(int(scale.Fraction(metrics.ReadingTPS)*float64(rows)), rows-1) // from the bottom
	y := rows - 1 - markerRow
	lines := make([]string, rows)
	var sb strings.Builder
	run := make([]rune, 0, sw)
	for i := range lines {
		sb.Reset()
		fromBottom := rows - 1 - i
		marker := false // the run is the reading-speed marker, not bars
		flush := func() {
			if marker {
				sb.WriteString(m.paint.ReadingMarker.Render(string(run)))
			} else {
				sb.WriteString(m.paint.Spark.Render(string(run)))
			}
			run = run[:0]
		}
		for _, e := range eighths {
			r, isMarker := sparkRune(e-8*fromBottom), false
			if r == ' ' && i == y {
				r, isMarker = '┈', true
			}
			if isMarker != marker && len(run) > 0 {
				flush()
			}
			marker = isMarker
			run = append(run, r)
		}
		flush()
		lines[i] = sb.String()
	}
	for i := range lines {
		label := ""
		switch {
		case i == 0:
			label = m.paint.Label.Render(topLabel)
		case i == y:
			label = m.paint.ReadingMarker.Render("read")
		}
		lines[i] += " " + format.PadLeft(label, gutter-1)
	}
	return lines
}

// sparkRune is a sparkline cell filled eighths eighths from its bottom.
func sparkRune(eighths int) rune {
	switch {
	case eighths <= 0:
		return ' '
	case eighths >= 8:
		return '█'
	}
	return []rune("▁▂▃▄▅▆▇")[eighths-1]
}

// textLines is what the lane says below its figures: the tail of the
// answer (after a line about the thinking phase, if there was one), the
// reasoning while the model thinks, or why the stream failed.
func (m *Model) textLines(width, rows int) []string {
	if rows <= 0 {
		return nil
	}
	f := m.figures
	if f.Status == live.Failed {
		return styleLines(m.paint.Error, wrapOnce(failureText(f), width, rows))
	}
	var footer []string
	if f.Failed > 0 && rows > 1 {
		footer = styleLines(m.paint.Error, wrapOnce(failureText(f), width, 1))
		rows--
	}
	var lines []string
	switch {
	case m.answerLen == 0 && m.reasoningLen == 0:
		switch f.Status {
		case live.Waiting:
			lines = []string{m.paint.Note.Render(m.waitingNote())}
		case live.Done:
			lines = []string{m.paint.Note.Render("(no text)")}
		}
	case m.answerLen == 0:
		lines = append([]string{m.thinkingNote()}, styleLines(m.paint.Reasoning, m.reasoning.Tail(rows-1))...)
	default:
		if m.reasoningLen > 0 && rows > 1 {
			lines = append(lines, m.thinkingNote())
		}
		lines = append(lines, styleLines(m.paint.Answer, m.answer.Tail(rows-len(lines)))...)
	}
	return append(lines, footer...)
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

// thinkingNote folds the reasoning into one line: ongoing, or how long it took.
func (m *Model) thinkingNote() string {
	tokens := format.Count(m.provider.ReasoningTokens()) + " tokens"
	f := m.figures
	if m.answerLen == 0 {
		return m.paint.Thinking.Render("thinking… " + tokens)
	}
	if f.HasTTFA && f.HasTTFT {
		return m.paint.Note.Render("thought for " + format.Duration(f.TTFA-f.TTFT) + " · " + tokens)
	}
	return m.paint.Note.Render("thought · " + tokens)
}

// viewportLines is the zoomed lane's whole text, scrolled by the viewport
// and following the tail while it is at the bottom.
func (m *Model) viewportLines(width, rows int) []string {
	m.viewport.Width, m.viewport.Height = width, rows
	if text := m.answerLen + m.reasoningLen; text != m.viewportText || width != m.viewportWidth {
		follow := m.viewport.AtBottom()
		var lines []string
		if f := m.figures; f.Err != nil {
			lines = append(lines, styleLines(m.paint.Error, wrapOnce(failureText(f), width, 1000))...)
		}
		if m.reasoningLen > 0 {
			lines = append(lines, m.thinkingNote())
			lines = append(lines, styleLines(m.paint.Reasoning, m.reasoning.Lines())...)
			lines = append(lines, "")
		}
		lines = append(lines, styleLines(m.paint.Answer, m.answer.Lines())...)
		m.viewport.SetContent(strings.Join(lines, "\n"))
		if follow {
			m.viewport.GotoBottom()
		}
		m.viewportText, m.viewportWidth = text, width
	}
	return strings.Split(m.viewport.View(), "\n")
}

// failureText says why streams failed: the failure's own words (status,
// code, message, hint) for one stream, with a count for several.
func failureText(f live.Figures) string {
	if f.Err == nil {
		return ""
	}
	msg := f.Err.Error()
	if interrupted(f.Err) {
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

func interrupted(err error) bool {
	var f *probes.Failure
	return errors.As(err, &f) && f.Kind == probes.KindCancelled
}

// wrapOnce word-wraps a short text (a failure) and keeps its first rows
// lines; the last one kept ends with "…" when some are left out.
func wrapOnce(s string, width, rows int) []string {
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	if len(lines) <= rows || rows <= 0 {
		return lines[:min(len(lines), max(rows, 0))]
	}
	lines = lines[:rows]
	lines[rows-1] = ansi.Truncate(strings.TrimRight(lines[rows-1], " "), width-1, "") + "…"
	return lines
}

func styleLines(style draw.Paint, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = style.Render(l)
	}
	return out
}

// fit cuts or pads every line to width and the list to height.
func fit(lines []string, width, height int) []string {
	out := make([]string, height)
	for i := range out {
		if i < len(lines) {
			line, w := lines[i], draw.Width(lines[i])
			if w > width {
				line, w = ansi.Truncate(line, width, "…"), width
			}
			out[i] = line + strings.Repeat(" ", max(width-w, 0))
		} else {
			out[i] = strings.Repeat(" ", width)
		}
	}
	return out
}

// flow lays fields out left to right, two spaces apart, wrapping onto at
// most maxLines lines; fields that do not fit are left out.
func flow(fields []string, width, maxLines int) []string {
	var lines []string
	line, lineW := "", 0
	for _, f := range fields {
		fw := draw.Width(f)
		if fw > width {
			continue
		}
		if lineW > 0 && lineW+2+fw > width {
			lines = append(lines, line)
			line, lineW = "", 0
		}
		if len(lines) == maxLines {
			break
		}
		if lineW > 0 {
			line += "  "
			lineW += 2
		}
		line += f
		lineW += fw
	}
	if lineW > 0 && len(lines) < maxLines {
		lines = append(lines, line)
	}
	return lines
}

// edge is a top or bottom border with a text at each end: "╭─ left ──── right ─╮".
// The right text (the lane's status) is kept whole and the left one is
// cut to make room; the right goes only when it does not fit alone.
func edge(style draw.Paint, leftCorner, fill, rightCorner, left, right string, width int) string {
	inner := width - 2
	lw, rw := draw.Width(left), draw.Width(right)
	if right != "" && rw+4 > inner {
		right, rw = "", 0
	}
	room := inner - 4
	if right != "" {
		room = inner - rw - 6
	}
	if left != "" && lw > room {
		left = ansi.Truncate(left, max(room, 0), "…")
		lw = draw.Width(left)
	}
	if lw == 0 {
		left = ""
	}
	var sb strings.Builder
	used := 0
	sb.WriteString(style.Render(leftCorner))
	if left != "" && inner >= 4 {
		sb.WriteString(style.Render(fill) + " " + left + " ")
		used += lw + 3
	}
	tail := ""
	if right != "" {
		tail = " " + right + " " + style.Render(fill)
		used += rw + 3
	}
	sb.WriteString(style.Render(strings.Repeat(fill, max(inner-used, 0))))
	sb.WriteString(tail + style.Render(rightCorner))
	return sb.String()
}

func itoa(n int) string { return strconv.Itoa(n) }
