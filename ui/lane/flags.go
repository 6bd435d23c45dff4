package lane

import (
	"strings"

	"tpsrace/metrics"
	"tpsrace/ui/internal/draw"
)

// flagLines are the referee's flags on the zoomed lane, what the ⚑ in its
// title means: one line each with its evidence ("⚑ cached_prompt  5 of 12
// prompt tokens served from the provider's cache"), cut at a word with
// " …" (bench's JSON has it whole); in a lane under 12 rows, one line of
// their names, leaving the text its room.
func (m *Model) flagLines(width, height int) []string {
	if m.figures.Flags == "" {
		return nil
	}
	flags := metrics.FlagsOfText(m.figures.Flags)
	label := m.styles.Label.Render("⚑ ")
	if height < 12 {
		return []string{label + m.styles.Value.Render(draw.Words(strings.Join(flags.Names(), ", "), max(width-2, 1)))}
	}
	var lines []string
	for _, name := range flags.Names() {
		room := width - 2 - draw.Width(name) - 2
		line := label + m.styles.Value.Render(name)
		if room > 0 {
			line += "  " + m.styles.Label.Render(draw.Words(flags[name], room))
		}
		lines = append(lines, line)
	}
	return lines
}
