package sweepview

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"tpsrace/format"
)

// presentView is presenter mode's sweep scene (--present): the trade-off
// alone, large, a line per provider with its knee, and the verdict.
func (m Model) presentView() string {
	parts := []string{m.status(), m.styles.Title.Render("THE TRADE-OFF: per user tok/s ↑ · aggregate tok/s →"), m.charts, m.legend()}
	parts = append(parts, m.knees()...)
	parts = append(parts, m.verdict()...)
	return lipgloss.NewStyle().MaxWidth(m.width).MaxHeight(m.height).Render(strings.Join(parts, "\n"))
}

// presentChart is the scene's chart: the height the knees and the verdict leave.
func (m Model) presentChart() string {
	h := max(m.height-4-len(m.sweep.Curves)-len(m.verdict()), minChart)
	return chart(m.sweep, tradeOff(m.sweep), m.styles, m.width, h, format.Short)
}

// knees is a line per provider: where it stops gaining, and what it holds there.
func (m Model) knees() []string {
	var out []string
	for i, c := range m.sweep.Curves {
		text := "● " + c.Name + "  "
		p, ok := c.Headline()
		switch {
		case !ok:
			text += "no aggregate yet"
		case c.Knee.Found:
			text += "knee at C=" + strconv.Itoa(c.Knee.At) + " · "
		default:
			text += "still gaining at C=" + strconv.Itoa(p.Concurrency) + " · "
		}
		if ok {
			text += format.TPS(p.Aggregate.Median) + " tok/s aggregate"
			if u, has := p.PerUser(); has {
				text += " at " + format.TPS(u) + " per user"
			}
		}
		out = append(out, m.styles.provider(i).Bold(true).Render(text))
	}
	return out
}
