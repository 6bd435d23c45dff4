package ui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/live"
)

// Presenter mode (--present) is the race for a room: a 3-2-1 countdown
// before the release, then one card per provider with its headline figure
// in big digits (tok/s, or the workload's own: headline) and its progress
// to the finish, then a podium with the verdict.
// Only provider names are shown: no model IDs, base URLs or error details.

// countdownFrom is the countdown's first number; one a second, then the release.
const countdownFrom = 3

// countdownMsg is the countdown reaching left (0: release the race).
type countdownMsg struct{ race, left int }

// presenter is the root's child for presenter mode: the countdown's
// number and the stage drawn for the race on screen (the countdown, the
// cards or the podium), which takes the place of the lanes, leaderboard
// and chart.
type presenter struct {
	c     *common
	count int      // the countdown's number on screen
	stage []string // the body, drawn by draw
}

func newPresenter(c *common) *presenter { return &presenter{c: c} }

// countdown starts the countdown of race.
func (p *presenter) countdown(race int) tea.Cmd {
	p.count = countdownFrom
	return countdownTick(race, countdownFrom-1)
}

// Update shows the countdown's next number and asks for the one after.
func (p *presenter) Update(msg countdownMsg) tea.Cmd {
	p.count = msg.left
	return countdownTick(msg.race, msg.left-1)
}

// countdownTick is the countdown reaching left in a second.
func countdownTick(race, left int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return countdownMsg{race: race, left: left} })
}

// draw draws the stage for the session's race, with figures figs, in width × height.
func (p *presenter) draw(s *session, figs []live.Snapshot, width, height int) {
	switch s.phase {
	case phaseCountdown:
		p.stage = p.countdownLines(s, width, height)
	case phaseFinished:
		p.stage = p.podium(s, figs, width, height)
	default:
		p.stage = p.cards(s, figs, width, height)
	}
}

// View is the stage, one string a line.
func (p *presenter) View() []string { return p.stage }

// countdownLines is the countdown's number, as big as two thirds of the
// stage allow in square cells, and who races, centred on the stage.
func (p *presenter) countdownLines(race *session, width, height int) []string {
	s := p.c.styles
	const below = 4 // the lines under the number
	number := itoa(p.count)
	high := (height * 2 / 3) / 5
	for high > 1 && (5*high+below > height || draw.Width(bigTextScaled(number, 2*high, high)[0]) > width) {
		high--
	}
	var lines []string
	if high < 1 || 5*high+below > height {
		lines = append(lines, s.Title.Render(center(number, width)))
	} else {
		for _, row := range bigTextScaled(number, 2*high, high) {
			lines = append(lines, s.Title.Render(center(row, width)))
		}
	}
	names := make([]string, len(race.live))
	for i, pr := range race.live {
		names[i] = s.Provider(i).Render(pr.Name)
	}
	lines = append(lines, "", center(s.Status.Render("ready… every provider gets the prompt at the same instant"), width), "",
		center(strings.Join(names, s.Label.Render("  ·  ")), width))
	top := max(height-len(lines), 0) / 2
	return padLines(append(make([]string, top), lines...), height)
}

// cards are one box per provider: name and status, tok/s in big digits,
// progress to the finish, TTFT.
func (p *presenter) cards(race *session, figs []live.Snapshot, width, height int) []string {
	n := len(figs)
	if n == 0 {
		return padLines(nil, height)
	}
	rows := 1
	switch {
	case n > 8:
		rows = 3
	case n > 3:
		rows = 2
	}
	cols := (n + rows - 1) / rows
	widths, heights := split(width, cols), split(height, rows)
	finish := live.FinishLine(p.c.opts.FinishAt, race.maxTokens, figs)
	places := leaderboard.Places(figs)
	var lines []string
	for r := range rows {
		var boxes [][]string
		for c := range cols {
			if i := r*cols + c; i < n {
				boxes = append(boxes, p.card(race.live[i].Name, i, figs[i], places[i], finish, widths[c], heights[r]))
			}
		}
		for k := range heights[r] {
			var sb strings.Builder
			for _, b := range boxes {
				sb.WriteString(b[k])
			}
			lines = append(lines, sb.String())
		}
	}
	return lines
}

func (p *presenter) card(name string, i int, f live.Snapshot, place, finish, width, height int) []string {
	s := p.c.styles
	accent := s.Provider(i)
	iw := max(width-2, 0)
	status := "◌ waiting"
	switch {
	case f.Status == live.Failed:
		status = s.Error.Render("✗ failed")
	case place > 0:
		status = s.Lane.Places[min(place, 3)-1].Render("✓ " + format.Ordinal(place))
	case f.Status == live.Streaming || f.Status == live.Thinking:
		status = s.Status.Render("▶ " + f.Status.String())
	}
	speed, label, _ := headline(f)
	ttft := format.Undefined
	if f.HasTTFT {
		ttft = format.Duration(f.TTFT)
	}
	title := center(accent.Render(name)+"  "+status, iw)
	bar := max(iw-4, 1)
	filled := int(live.Progress(f, finish) * float64(bar))
	progressBar := func(done, left string) string {
		return center(accent.Render(strings.Repeat(done, filled))+s.Label.Render(strings.Repeat(left, bar-filled)), iw)
	}
	progress := progressBar("█", "░")
	// Right under the digits, a full-height bar would read as part of
	// them: there the bar is the lower half of its row.
	underDigits := progressBar("▄", "▁")
	// The figures under the digits give way whole in a narrow card: the
	// token count first, then TTFT.
	figures := func(lead ...draw.Segment) string {
		sep := s.Label.Render("  ·  ")
		segs := append(lead, draw.Segment{Text: s.Label.Render("TTFT ") + s.Status.Render(ttft), Rank: 1},
			draw.Segment{Text: s.Status.Render(itoa(f.Tokens)) + s.Label.Render(" tokens"), Rank: 2})
		return center(draw.Join(segs, sep, iw), iw)
	}
	// The biggest digits that fit, then the rest as room allows.
	ih := max(height-2, 0)
	scale := 2
	for scale > 0 && (5*scale+3 > ih || ansi.StringWidth(bigText(speed, scale)[0]) > iw) {
		scale--
	}
	var body []string
	switch {
	case scale == 0:
		body = []string{title, center(accent.Render(speed)+s.Label.Render(" "+label), iw), progress, figures()}
	case 5*scale+6 <= ih:
		body = append([]string{title, ""}, centered(bigText(speed, scale), accent, iw)...)
		body = append(body, center(s.Label.Render(label), iw), "", progress, figures())
	default:
		body = append([]string{title}, centered(bigText(speed, scale), accent, iw)...)
		body = append(body, underDigits, figures(draw.Segment{Text: s.Label.Render(label)}))
	}
	body = append(make([]string, max(ih-len(body), 0)/2), body...) // vertically centred
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(s.Palette.ProviderColor(i)).
		Width(iw).Height(max(height-2, 0)).MaxHeight(height)
	return padLines(splitLines(box.Render(strings.Join(body[:min(len(body), ih)], "\n"))), height)
}

// centered is rows in style, each centred in width.
func centered(rows []string, style lipgloss.Style, width int) []string {
	out := make([]string, len(rows))
	for k, row := range rows {
		out[k] = center(style.Render(row), width)
	}
	return out
}

// podium is the finished race: the three fastest on steps (2nd, 1st, 3rd)
// with their headline figures, the others on a line, and the verdict.
func (p *presenter) podium(race *session, figs []live.Snapshot, width, height int) []string {
	s := p.c.styles
	order := leaderboard.Order(figs)
	var top []int
	for _, i := range order {
		if _, _, ok := headline(figs[i]); ok && len(top) < 3 {
			top = append(top, i)
		}
	}
	steps := []int{1, 0, 2} // 2nd on the left, 1st in the middle, 3rd on the right
	colW := width / 3
	scale := podiumScale(figs, top, colW, height)
	digitRows := max(5*scale, 1)
	first := min(max(height-4-3-1-digitRows, 1), 9)
	stepRows := []int{first, max(first*2/3, 1), max(first*4/9, 1)}
	tallest := 3 + digitRows + 1 + stepRows[0]
	grid := make([][]string, 3)
	for k, rank := range steps {
		col := make([]string, tallest)
		for r := range col {
			col[r] = strings.Repeat(" ", colW)
		}
		if rank < len(top) {
			i := top[rank]
			accent := s.Provider(i)
			var stack []string
			stack = append(stack, center(s.Lane.Places[rank].Render(format.Ordinal(rank+1)), colW), center(accent.Render(race.live[i].Name), colW), center("", colW))
			text, label, _ := headline(figs[i])
			digits := []string{text}
			if scale > 0 {
				digits = bigText(text, scale)
			}
			stack = append(stack, centered(digits, accent, colW)...)
			stack = append(stack, center(s.Label.Render(label), colW))
			for range stepRows[rank] {
				stack = append(stack, center(s.Step.Render(strings.Repeat("█", max(colW-4, 1))), colW))
			}
			copy(col[tallest-len(stack):], stack)
		}
		grid[k] = col
	}
	var lines []string
	for r := range tallest {
		lines = append(lines, grid[0][r]+grid[1][r]+grid[2][r])
	}
	rest := offPodium(race, figs, order[len(top):])
	if len(rest) > 0 {
		lines = append(lines, "", center(s.Label.Render(strings.Join(rest, "  ·  ")), width))
	}
	names := make([]string, len(race.live))
	for i, pr := range race.live {
		names[i] = pr.Name
	}
	lines = append(lines, "", center(s.Verdict.Render(leaderboard.VerdictLine(names, figs, width)), width))
	if len(lines) > height { // short windows keep the verdict
		lines = lines[len(lines)-height:]
	}
	top2 := (height - len(lines)) / 2
	return padLines(append(make([]string, top2), lines...), height)
}

// podiumScale is how big the podium's digits are: twice as big when the
// window has room for them and 4 rows of steps (the steps as high as the
// window allows, up to 9 rows: the places, names, speeds and verdict
// always show), 1 else, and 0 (text, all of them alike) when a figure is
// too wide for a third even at scale 1.
func podiumScale(figs []live.Snapshot, top []int, colW, height int) int {
	scale := 2
	for _, i := range top {
		text, _, _ := headline(figs[i])
		if ansi.StringWidth(bigText(text, 1)[0]) > colW-2 {
			return 0
		}
		if ansi.StringWidth(bigText(text, 2)[0]) > colW-2 {
			scale = 1
		}
	}
	if scale > 0 && height-4-3-1-5*2 < 4 {
		scale = 1
	}
	return scale
}

// offPodium is the providers off the podium, each with its headline figure
// or what kept it off.
func offPodium(race *session, figs []live.Snapshot, order []int) []string {
	var rest []string
	for _, i := range order {
		name := race.live[i].Name
		if text, label, ok := headline(figs[i]); figs[i].Status == live.Failed {
			rest = append(rest, name+" failed")
		} else if ok {
			rest = append(rest, name+" "+text+" "+label)
		} else {
			rest = append(rest, name+" "+format.Undefined)
		}
	}
	return rest
}

// padLines is lines cut or padded with empty lines to height.
func padLines(lines []string, height int) []string {
	for len(lines) < height {
		lines = append(lines, "")
	}
	return lines[:height]
}
