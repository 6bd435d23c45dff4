// Package leaderboard is the race's standings: a row per provider, ranked
// live by output speed and settled when every stream has ended, with the
// finish order, the headline figures, a compact race track (progress to the
// finish line every lane shares) and a one-line verdict.
//
//	b := leaderboard.New(names, concurrency, leaderboard.DefaultStyles(p))
//	b.SetSize(96, 6)
//	b, _ = b.Update(leaderboard.FrameMsg{Figures: figures})
//	fmt.Println(b.View())
//
// Ranking is metrics.Rank of the per-user speeds (metrics.SoFar while
// streaming, metrics.Compute once ended): providers with a speed first,
// fastest first; then those still waiting; failed providers last; ties by
// TTFT, then by the order of the config. Finish places go to providers whose streams all
// ended and at least one completed, by the time their last stream ended.
package leaderboard

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

// Styles of the leaderboard, each a lipgloss style with its escape
// sequences taken once (draw.Paint).
type Styles struct {
	Header    draw.Paint
	Muted     draw.Paint
	Figure    draw.Paint // the headline speed
	Focused   draw.Paint // the focused provider's row
	Failed    draw.Paint
	Verdict   draw.Paint
	Flagged   draw.Paint    // the referee's flags on the verdict
	Places    [3]draw.Paint // 1st, 2nd, 3rd to finish
	Providers []draw.Paint  // provider i's name and bar: Providers[i%len(Providers)]
}

// DefaultStyles are built from palette p. Call it once the colour profile
// and the background are decided (draw.Paint).
func DefaultStyles(p theme.Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	paint := draw.NewPaint
	s := Styles{
		Header:  paint(fg(p.Muted).Bold(true).Underline(true)),
		Muted:   paint(fg(p.Muted)),
		Figure:  paint(lipgloss.NewStyle().Bold(true)),
		Focused: paint(lipgloss.NewStyle().Reverse(true)),
		Failed:  paint(fg(p.Bad)),
		Verdict: paint(fg(p.Accent).Bold(true)),
		Flagged: paint(fg(p.Warn)),
		Places:  [3]draw.Paint{paint(fg(p.Gold).Bold(true)), paint(fg(p.Silver).Bold(true)), paint(fg(p.Bronze).Bold(true))},
	}
	for _, c := range p.Providers {
		s.Providers = append(s.Providers, paint(fg(c).Bold(true)))
	}
	return s
}

// provider is provider i's style.
func (s Styles) provider(i int) draw.Paint { return s.Providers[i%len(s.Providers)] }

// FrameMsg gives the leaderboard every provider's figures, by index, the
// race track's finish line in per-user tokens (live.FinishLine; 0 draws no
// track), and whether the race has ended.
//
// Ended gates the verdict, not the rows: a row settles as its streams end,
// but the verdict waits for the race's end, when its results are kept (what
// `s` saves) and refereed (its ⚑). Shown the moment the last lane settled,
// it would stand for a race the history does not hold yet, flags to come.
type FrameMsg struct {
	Figures []live.Snapshot
	Finish  int
	Ended   bool
}

// Model is the leaderboard.
type Model struct {
	styles Styles

	names       []string
	concurrency int
	width       int
	height      int
	focus       int  // the focused provider's index, when focused
	focused     bool // a row is focused
	figures     []live.Snapshot
	finish      int
	ended       bool  // the race has ended: the verdict shows (FrameMsg)
	heats       Heats // --heats: the standing over the heats so far
	headline    headlineSize
	lines       []string // as last rendered, height lines
}

// New is a leaderboard for these providers (in config order).
func New(names []string, concurrency int, styles Styles) Model {
	m := Model{styles: styles, names: names, concurrency: max(concurrency, 1), figures: make([]live.Snapshot, len(names))}
	m.render()
	return m
}

// SetSize sets the leaderboard's size: one line for the column names, one
// per provider, then the headline's (HeadlineRows: the verdicts, the
// flags). Rows that do not fit are cut from the bottom; the headline stays.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.render()
}

// SetFocus highlights provider i's row; ok false highlights none.
func (m *Model) SetFocus(i int, ok bool) {
	m.focus, m.focused = i, ok
	m.render()
}

// Update handles FrameMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if msg, ok := msg.(FrameMsg); ok && len(msg.Figures) == len(m.names) {
		m.figures, m.finish, m.ended = msg.Figures, msg.Finish, msg.Ended
		if w := m.workload(); w != nil && w.Description().NoText {
			m.finish = 0 // a call's arguments are no answer text: no track to race along
		}
		m.render()
	}
	return m, nil
}

// View is the leaderboard as last rendered.
func (m Model) View() string { return strings.Join(m.lines, "\n") }

// Lines are the leaderboard as last rendered, line by line: the dashboard
// lays them beside the chart's twenty times a second, without joining them
// to split them again.
func (m Model) Lines() []string { return m.lines }

// Order ranks providers by metrics.Rank; it returns indexes, best first.
// Once a workload's run has ended, by metrics.Order of the providers' runs
// (bench's ranking of the same races); before, by the workload's figure so
// far where a provider has one (soFar), else by TTFT.
func Order(figs []live.Snapshot) []int {
	figs = byAnswer(figs)
	if runs, ok := rankedRuns(figs); ok {
		return metrics.Order(runs)
	}
	if len(figs) > 0 && figs[0].FinishAt > 0 {
		return orderToFinish(figs)
	}
	standings := make([]metrics.Standing, len(figs))
	for i, f := range figs {
		standings[i] = metrics.Standing{Speed: f.Speed, HasSpeed: f.HasSpeed, TTFT: f.TTFT, HasTTFT: f.HasTTFT, Failed: f.Status == live.Failed}
	}
	if slices.ContainsFunc(figs, func(f live.Snapshot) bool { return f.Metric != "" || isWorkload(f) }) { // a workload's figure (Summary.Rate)
		for i, f := range figs {
			standings[i].Speed, standings[i].HasSpeed = soFar(f)
		}
	}
	return metrics.Rank(standings)
}

// Places are the finish places by provider index (1 = the best finished,
// 0 = not finished, failed, stopped short of --finish-at's N (no place is
// won by writing less), or some of its streams lost to a broken recording
// (when its last stream ended is unknown)). A place is the lane's rank
// (Order) among the finished, not the order their streams ended in: the
// board ranks by the verdict's figure (output speed, or the workload's),
// and a faster decoder with a slower first token ends later, so places by
// end time printed "1 b 2nd" above "2 a 1st", two winners for one race.
// Who ended first is the total column's.
func Places(figs []live.Snapshot) []int {
	places := make([]int, len(figs))
	place := 0
	for _, i := range Order(figs) {
		if f := figs[i]; f.Status == live.Done && !f.StoppedShort() && f.Lost == 0 {
			place++
			places[i] = place
		}
	}
	return places
}

// column is one column of the table.
type column struct {
	header   string
	width    int
	right    bool // right-aligned (numbers)
	priority int  // lower stays longer when the table is narrow (fitColumns)
	cell     func(r row) string
}

// row is what a cell is drawn from.
type row struct {
	index, rank, place int
	f                  live.Snapshot
}

func (m *Model) columns() []column {
	s := m.styles
	dash := s.Muted.Render(format.Undefined)
	nameW := len("provider")
	for _, n := range m.names {
		nameW = max(nameW, draw.Width(n))
	}
	nameW = min(nameW, 22)
	anyCost := false
	for _, f := range m.figures {
		anyCost = anyCost || f.HasCost
	}
	speedHeader, tokensHeader := "tok/s", "tokens"
	if m.concurrency > 1 {
		speedHeader, tokensHeader = "per-user", "tok/user" // tokens per user, as bench's table
	}
	cols := []column{
		{header: "#", width: 3, right: true, priority: 0, cell: func(r row) string {
			if m.focused && r.index == m.focus { // marked in words too: reverse video is lost without colour
				return "▸" + strconv.Itoa(r.rank)
			}
			return s.Muted.Render(strconv.Itoa(r.rank))
		}},
		{header: "provider", width: nameW, priority: 0, cell: func(r row) string {
			return s.provider(r.index).Render(format.Name(m.names[r.index], nameW))
		}},
		{header: "finish", width: 6, priority: 1, cell: func(r row) string {
			f, place := r.f, r.place
			switch {
			case f.Lost > 0:
				return s.Muted.Render("lost")
			case stoppedOnly(f):
				return s.Muted.Render("stopped")
			case f.Status == live.Failed:
				return s.Failed.Render("failed")
			case f.StoppedShort():
				return s.Failed.Render("short")
			case place >= 1 && place <= 3:
				return s.Places[place-1].Render(format.Ordinal(place))
			case place > 3:
				return format.Ordinal(place)
			case f.HasTTFT:
				return s.Muted.Render("…")
			}
			return dash
		}},
	}
	// A workload's own figures stand in for TTFT and speed.
	if wl := m.workloadColumns(dash); wl != nil {
		cols = append(append(cols, wl...), m.heatsColumns()...)
	} else {
		cols = append(append(cols, m.speedColumns(dash, speedHeader)...), m.heatsColumns()...)
		cols = append(cols, wordsColumn(dash))
	}
	cols = append(cols, m.tailColumns(dash, tokensHeader, anyCost)...)
	// Widen columns to their widest cell, so nothing is ever cut.
	for k := range cols {
		cols[k].width = max(cols[k].width, draw.Width(cols[k].header))
		for i, f := range m.figures {
			cols[k].width = max(cols[k].width, draw.Width(cols[k].cell(row{index: i, rank: i + 1, place: 1, f: f})))
		}
	}
	return cols
}

// tokensCell is the output token count, with the o200k count beside it
// when the provider's usage differs from it by more than 5%; "~" marks an
// o200k estimate (no usage reported, or still streaming).
func tokensCell(f live.Snapshot) string {
	if f.Status == live.Failed && f.Tokens == 0 {
		return format.Undefined
	}
	return metrics.TokensText(f.Tokens, f.O200kTokens, f.TokenSource)
}

// fitColumns keeps the most important columns that fit, whole (a figure
// is never cut), in their order: by priority, of equal priority the
// leftmost first; a column too wide for what is left gives way to the
// narrower ones after it. What a presenter needs most stays longest: rank,
// provider and the headline figure (0; the rank and the provider stay
// however narrow); the finish place and TTFT (1); total and SLO (2); the
// feel (3: a stall shows nowhere else); tokens (4: the track shows the
// distance), words/s (5: tok/s in words) and cost/req (6) go first.
func fitColumns(cols []column, width int) []column {
	byPriority := make([]int, len(cols))
	for k := range cols {
		byPriority[k] = k
	}
	slices.SortStableFunc(byPriority, func(a, b int) int { return cmp.Compare(cols[a].priority, cols[b].priority) })
	keep := make([]bool, len(cols))
	used := 0
	for n, k := range byPriority {
		if w := cols[k].width + 2; used+w <= width || n < 2 {
			keep[k], used = true, used+w
		}
	}
	var fit []column
	for k, c := range cols {
		if keep[k] {
			fit = append(fit, c)
		}
	}
	return fit
}

func (m *Model) render() {
	if m.width <= 0 || m.height <= 0 {
		m.lines = []string{""}
		return
	}
	// The track keeps minTrack cells where the table is wide enough: the
	// least important columns go first to make room.
	const minTrack, trackFrom = 16, 70
	room := m.width
	// Heats columns need the room of the track below heatsTrackFrom.
	const heatsTrackFrom = 120
	if m.finish > 0 && m.width >= trackFrom && (m.heats.Done == 0 || m.width >= heatsTrackFrom) {
		room -= minTrack + 2
	}
	cols := fitColumns(m.columns(), room)
	used := 0
	for _, c := range cols {
		used += c.width + 2
	}
	trackW := m.width - used - 2 // and the finish line

	lines := []string{m.header(cols, trackW, minTrack)}

	order, places := Order(m.figures), Places(m.figures)
	if heats := m.heatsOrder(); heats != nil {
		order = heats
	}
	for rank, i := range order {
		f := m.figures[i]
		texts := make([]string, len(cols))
		for k, c := range cols {
			texts[k] = c.cell(row{index: i, rank: rank + 1, place: places[i], f: f})
		}
		line := cells(cols, texts)
		// A failed provider's track shows what it delivered before it
		// failed, in the failure's colour; none when it delivered nothing.
		if trackW >= minTrack && m.finish > 0 && (f.Status != live.Failed || f.UserTokens > 0) {
			bar := m.styles.provider(i)
			if f.Status == live.Failed {
				bar = m.styles.Failed
			}
			filled := draw.Bar(live.Progress(f, m.finish), trackW)
			line += bar.Render(filled) + m.styles.Muted.Render(format.PadLeft("┃", trackW+1-draw.Width(filled)))
		}
		if m.focused && i == m.focus {
			line = m.styles.Focused.Render(ansi.Strip(line))
		}
		lines = append(lines, line)
	}

	m.lines = m.withHeadline(lines)
}

// withHeadline is the table's lines cut to the room the headline leaves
// and padded to the table's width, then the headline's lines: m.height
// lines in all.
func (m *Model) withHeadline(lines []string) []string {
	rows, width := m.headline.rows, m.headline.width
	if rows <= 0 {
		rows = HeadlineRows(len(m.names), m.height, m.heats.Of > 0)
	}
	if width <= 0 {
		width = m.width
	}
	// The table's rows that do not fit are cut from the bottom; the
	// headline keeps its lines, at the bottom, where a chart beside the
	// table has left them the whole width.
	keep := max(m.height-rows, 0)
	if len(lines) > keep {
		lines = lines[:keep]
	}
	for len(lines) < keep {
		lines = append(lines, "")
	}
	for k := range lines {
		lines[k] = format.PadRight(format.Truncate(lines[k], m.width, "…"), m.width)
	}
	headline := m.headlineLines(rows, width)
	for k := range headline {
		headline[k] = format.PadRight(format.Truncate(headline[k], width, "…"), width)
	}
	lines = append(lines, headline...)
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return lines[:m.height]
}

// header is the table's header line: each column's, then the track's
// finish line where the track shows.
func (m *Model) header(cols []column, trackW, minTrack int) string {
	headers := make([]string, len(cols))
	for k, c := range cols {
		headers[k] = m.styles.Header.Render(c.header)
	}
	header := cells(cols, headers)
	if trackW >= minTrack && m.finish > 0 {
		header += m.styles.Header.Render(format.PadLeft("finish "+format.Count(m.finish)+" tok", trackW+1))
	}
	return header
}

// cells is one row of the table: texts in cols, padded to their widths.
func cells(cols []column, texts []string) string {
	var sb strings.Builder
	for k, c := range cols {
		sb.WriteString(" ")
		if c.right {
			sb.WriteString(format.PadLeft(texts[k], c.width))
		} else {
			sb.WriteString(format.PadRight(texts[k], c.width))
		}
		sb.WriteString(" ")
	}
	return sb.String()
}

// tailColumns follow the speed (or the workload's figures): at C > 1 the
// aggregate, the total time, the tokens, the referee's columns and, where
// some provider has a price, the cost of a request.
func (m *Model) tailColumns(dash, tokensHeader string, anyCost bool) []column {
	s := m.styles
	var cols []column
	if m.concurrency > 1 {
		cols = append(cols, column{header: "aggregate", width: 9, right: true, priority: 1, cell: func(r row) string {
			f := r.f
			switch {
			case f.HasAggregateTPS:
				return format.TPS(f.AggregateTPS)
			case !f.Settled && f.HasTTFT:
				return s.Muted.Render(format.TPS(f.NowAggregateTPS))
			}
			return dash
		}})
	}
	cols = append(cols,
		column{header: "total", width: 6, right: true, priority: 2, cell: func(r row) string {
			f := r.f
			if !f.Settled {
				return s.Muted.Render(format.Duration(f.Elapsed))
			}
			return format.Duration(f.Elapsed)
		}},
		column{header: tokensHeader, width: len(tokensHeader), right: true, priority: 4, cell: func(r row) string {
			f := r.f
			return tokensCell(f)
		}},
	)
	cols = append(cols, m.refereeColumns(dash)...)
	if anyCost {
		cols = append(cols, column{header: "cost/req", width: 8, right: true, priority: 6, cell: func(r row) string {
			f := r.f
			if !f.HasCost {
				return dash
			}
			return format.USD(f.CostUSD)
		}})
	}
	return cols
}
