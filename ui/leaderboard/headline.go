package leaderboard

import (
	"slices"
	"strconv"
	"strings"

	"tpsrace/format"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
)

// The headline is the leaderboard's last lines: the race's verdict, the
// verdict over the heats (--heats) and the referee's flags on them. The
// dashboard draws them the whole window wide, under the chart as well as
// the table (SetHeadline), so both names and both figures fit from 100
// columns: the chart gives up its bottom rows, the verdict no words.

// HeadlineRows is how many lines the headline takes in a leaderboard
// height lines high with providers rows: the verdict, the heats' verdict
// when heats run, and a line for the referee's flags when the table leaves
// one (without it the flags end the verdict's line, or a bare ⚑ does).
func HeadlineRows(providers, height int, heats bool) int {
	rows := 1
	if heats {
		rows++
	}
	if height-(providers+1)-rows >= 1 {
		rows++
	}
	return min(rows, max(height, 0))
}

// SetHeadline sets the headline's rows (HeadlineRows) and width (the
// window's, wider than the table beside the chart; 0: the table's).
func (m *Model) SetHeadline(rows, width int) {
	m.headline = headlineSize{rows: rows, width: width}
	m.render()
}

type headlineSize struct{ rows, width int }

// headlineLines are the headline's lines, at most rows of them, each
// within width.
func (m *Model) headlineLines(rows, width int) []string {
	if rows <= 0 || !m.ended {
		return nil
	}
	prefix := ""
	if m.heats.Of > 0 {
		prefix = "this race: " // beside the standing over the heats, this verdict is the one race's
	}
	verdict, flagged := fitVerdict(width, prefix, func(names []string) (string, string) { return verdictParts(names, m.figures) }, m.names)
	if verdict == "" {
		return nil
	}
	var heats, heatsFlagged string
	if m.heats.Heat > 0 && m.heats.Verdict != "" {
		prefix := "heat " + strconv.Itoa(m.heats.Heat) + "/" + strconv.Itoa(m.heats.Of) + ": "
		heats, heatsFlagged = fitVerdict(width, prefix, m.heats.renamed(m.names), m.names)
	}
	lines := []string{verdict}
	if m.heats.Of > 0 && rows >= 2 {
		lines = append(lines, heats)
	} else if heats != "" {
		lines[0] = heats // one line: the verdict over the heats is the headline
		flagged = heatsFlagged
	}
	if flagged == "" {
		flagged = heatsFlagged
	}
	ownLine := flagged != "" && len(lines) < rows
	for k, line := range lines {
		if line == "" {
			continue
		}
		f := ""
		if !ownLine && k == 0 {
			f = flagged
		}
		lines[k] = m.styles.Verdict.Render(verdictLine(line, f, width))
	}
	switch {
	case ownLine:
		lines = append(lines, m.styles.Flagged.Render(draw.Words("⚑ "+flagged, width)))
	case len(lines) < rows && m.anyFlagged():
		// A ⚑ in a lane's title the verdict does not explain: the glyph's legend.
		lines = append(lines, m.styles.Muted.Render(draw.Words(FlagLegend, width)))
	}
	return lines
}

// FlagLegend says what a lane's ⚑ means, where the headline has a row for it.
const FlagLegend = "⚑ the referee flagged a provider's race: zoom its lane (1-9) to see why"

// anyFlagged is whether the referee flagged any provider (its lane shows ⚑).
func (m *Model) anyFlagged() bool {
	for _, f := range m.figures {
		if f.Flags != "" {
			return true
		}
	}
	return false
}

// fitVerdict is prefix and the verdict decide gives for names, with the
// names shortened ("groq-llama-3…") as far as it takes for "▶ " and it to
// keep the most of its words in width: a name gives way before a figure
// does, and no further than it must. The flags come with it, in the same
// names.
func fitVerdict(width int, prefix string, decide func(names []string) (string, string), names []string) (verdict, flagged string) {
	longest := 0
	for _, n := range names {
		longest = max(longest, draw.Width(n))
	}
	kept := -1
	for limit := longest; limit >= min(minName, longest); limit-- {
		short := make([]string, len(names))
		for i, n := range names {
			short[i] = format.Name(n, limit)
		}
		v, f := decide(short)
		if v == "" {
			return "", ""
		}
		mark := "" // the bare ⚑ that stands for flags with no room (verdictLine)
		if f != "" {
			mark = " ⚑"
		}
		text := "▶ " + prefix + v + mark
		words := len(strings.Fields(draw.Words(text, width)))
		if strings.HasSuffix(draw.Words(text, width), "…") {
			words-- // the ellipsis is no word of the verdict's
		}
		if words > kept { // longer names win ties: they come first
			kept, verdict, flagged = words, prefix+v, f
		}
		if draw.Width(text) <= width {
			break
		}
	}
	return verdict, flagged
}

// minName is the shortest a name gets in the verdict: a few letters and
// "…", still telling the providers apart.
const minName = 8

// verdictLine is "▶ " and the verdict, then the referee's flags on it
// whole ("· ⚑ swapped answered by another model in 1/1 runs") or, where
// they do not fit, a bare ⚑ (the flagged lanes and the help page say why):
// a sentence cut to "⚑ swapped …" would say nothing. Too long, the verdict
// gives way a word (a parenthesis) at a time: no figure is cut inside.
func verdictLine(verdict, flagged string, width int) string {
	text := "▶ " + verdict
	if flagged != "" {
		if whole := text + " · ⚑ " + flagged; draw.Width(whole) <= width {
			return whole
		}
		text += " ⚑"
	}
	return draw.Words(text, width)
}

// VerdictLine is Verdict as one line of width columns, "▶ " first, the
// names shortened before a figure gives way (fitVerdict).
func VerdictLine(names []string, figs []live.Snapshot, width int) string {
	verdict, flagged := fitVerdict(width, "", func(names []string) (string, string) { return verdictParts(names, figs) }, names)
	return verdictLine(verdict, flagged, width)
}

// renamed is the verdict over the heats and its flags with names (the
// providers', in config order) written as short instead: bench's own
// sentence, its names shortened to fit (fitVerdict).
func (h Heats) renamed(names []string) func(short []string) (string, string) {
	return func(short []string) (string, string) {
		order := make([]int, len(names)) // longest first: no name is replaced inside a longer one
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return len(names[b]) - len(names[a]) })
		var pairs []string
		for _, i := range order {
			pairs = append(pairs, names[i], short[i])
		}
		r := strings.NewReplacer(pairs...)
		return r.Replace(h.Verdict), r.Replace(h.Flagged)
	}
}
