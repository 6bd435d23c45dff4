package workloadview

import (
	"math"
	"strings"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/internal/draw"
)

// cachedPrefix is the title and, a provider a line, cold and warm TTFT
// side by side, the saving, the cached tokens reported and a bar.
func (m *Model) cachedPrefix() []string {
	f := m.figures
	race := "cold race"
	if f.Step == 2 {
		race = "warm race"
	}
	title := m.title(race+" "+itoa(f.Step)+"/"+itoa(f.Steps), itoa(f.InputTokens)+" tokens", "the same prompt twice: cold, then warm")
	cold, warm := column{header: "cold TTFT"}, column{header: "warm TTFT"}
	saving, cached := column{header: "saving"}, column{header: "cached (reported)"}
	for _, p := range f.Providers {
		c := p.PrefixCache
		cold.cells = append(cold.cells, ttft(c.Cold))
		warm.cells = append(warm.cells, ttft(c.Warm))
		saving.cells = append(saving.cells, figure(format.Percent(c.Saving), c.HasSaving))
		switch {
		case c.Cached.Has():
			cached.cells = append(cached.cells, format.Tokens(c.Cached.P50)+" tok")
		case c.Warm.Has():
			cached.cells = append(cached.cells, "none reported")
		default:
			cached.cells = append(cached.cells, format.Undefined)
		}
	}
	cols := fitColumns([]column{m.names(20), cold, warm, saving, cached}, m.width)
	if room := m.width - tableWidth(cols) - colGap; len(cols) == 5 && room >= draw.Width(barsHeader) {
		cols = append(cols, m.cacheBars(min(room, 40)))
	}
	return append([]string{title}, m.table(cols)...)
}

// cacheBars is cold and warm TTFT on one scale (the slowest cold one):
// the warm TTFT solid, the rest of the cold one light.
func (m *Model) cacheBars(width int) column {
	var top float64
	for _, p := range m.figures.Providers {
		if p.PrefixCache.Cold.Has() {
			top = max(top, p.PrefixCache.Cold.P50.Seconds())
		}
	}
	c := column{header: barsHeader, left: true}
	c.paint = func(i int, _ string) string {
		p := m.figures.Providers[i].PrefixCache
		if top == 0 || !p.Cold.Has() {
			return ""
		}
		cold := draw.Bar(p.Cold.P50.Seconds()/top, width)
		if !p.Warm.Has() {
			return m.styles.Light.Render(cold)
		}
		warm := draw.Bar(min(p.Warm.P50.Seconds()/top, p.Cold.P50.Seconds()/top), width)
		light := max(draw.Width(cold)-draw.Width(warm), 0)
		return m.styles.provider(i).Render(warm) + m.styles.Light.Render(strings.Repeat("░", light))
	}
	c.cells = make([]string, len(m.figures.Providers))
	for i := range c.cells {
		c.cells[i] = strings.Repeat(" ", width)
	}
	return c
}

const barsHeader = "warm █ of cold ░"

// multiTurn is the title (the turn on screen) and, a provider a line, each
// finished turn's TTFT, speed and input tokens and the conversation time
// so far. What does not fit gives way: the input tokens, then the speeds,
// then the earliest turns.
func (m *Model) multiTurn() []string {
	f := m.figures
	title := m.title("turn "+itoa(f.Step)+"/"+itoa(f.Steps), "each turn carries the answers before it")
	turns := 0
	for _, p := range f.Providers {
		turns = max(turns, len(p.Races))
	}
	conv := column{header: "conversation"}
	for _, p := range f.Providers {
		var run metrics.Summary
		if len(p.Runs) > 0 {
			run = p.Runs[len(p.Runs)-1]
		}
		conv.cells = append(conv.cells, figure(format.Duration(run.Conversation), run.HasConversation))
	}
	var cols []column
	for first := 0; first <= max(turns-1, 0); first++ {
		for detail := 3; detail >= 1; detail-- {
			cols = []column{m.names(20)}
			for t := first; t < turns; t++ {
				cols = append(cols, m.turnColumns(t, detail)...)
			}
			if cols = append(cols, conv); tableWidth(cols) <= m.width {
				return append([]string{title}, m.table(cols)...)
			}
		}
	}
	return append([]string{title}, m.table(fitColumns(cols, m.width))...)
}

// turnColumns are turn t's (from 0) columns: its TTFT, at detail 2 its
// speed, at 3 its input tokens (the provider's count of the prompt, which
// carries the turns before).
func (m *Model) turnColumns(t, detail int) []column {
	cols := []column{{header: "turn " + itoa(t+1) + " TTFT"}, {header: "tok/s"}, {header: "input"}}
	for _, p := range m.figures.Providers {
		var turn metrics.Summary // a turn not raced yet, or stopped: undefined
		if t < len(p.Races) {
			turn = p.Races[t]
		}
		cols[0].cells = append(cols[0].cells, ttft(turn.TTFT))
		cols[1].cells = append(cols[1].cells, figure(format.TPS(turn.Speed.P50), turn.Speed.Has()))
		cols[2].cells = append(cols[2].cells, figure(itoa(int(math.Round(turn.PromptTokens.P50))), turn.PromptTokens.Has()))
	}
	return cols[:detail]
}
