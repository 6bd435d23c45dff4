// Package theme is the dashboard's one palette. Every component builds its
// DefaultStyles from it, so the whole screen changes together. Colours are
// adaptive (light and dark backgrounds); the caller decides which background
// it is before the program starts, and under NO_COLOR lipgloss drops them,
// so nothing may depend on colour alone: every state also has a word or a
// symbol.
package theme

import "github.com/charmbracelet/lipgloss"

// Palette names colours by what they mean, not by their hue.
type Palette struct {
	Text      lipgloss.AdaptiveColor // body text
	Muted     lipgloss.AdaptiveColor // labels, secondary text
	Faint     lipgloss.AdaptiveColor // reasoning text, rules, empty space
	Border    lipgloss.AdaptiveColor // pane borders
	Focus     lipgloss.AdaptiveColor // the focused pane's border
	Accent    lipgloss.AdaptiveColor // titles, the verdict
	Good      lipgloss.AdaptiveColor // done
	Live      lipgloss.AdaptiveColor // streaming
	Thinking  lipgloss.AdaptiveColor // reasoning phase
	Bad       lipgloss.AdaptiveColor // failures
	Warn      lipgloss.AdaptiveColor // the simulated-providers banner, the reading-speed marker
	Gold      lipgloss.AdaptiveColor // 1st to finish
	Silver    lipgloss.AdaptiveColor // 2nd
	Bronze    lipgloss.AdaptiveColor // 3rd
	Providers []lipgloss.AdaptiveColor
}

// Default is the palette the dashboard uses.
func Default() Palette {
	c := func(light, dark string) lipgloss.AdaptiveColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	return Palette{
		Text:     c("#1a1a1a", "#e6e6e6"),
		Muted:    c("#5f5f5f", "#a0a0a0"),
		Faint:    c("#9e9e9e", "#626262"),
		Border:   c("#b8b8b8", "#4e4e4e"),
		Focus:    c("#5f00d7", "#af87ff"),
		Accent:   c("#5f00d7", "#af87ff"),
		Good:     c("#007a3d", "#5fd787"),
		Live:     c("#005fd7", "#5fafff"),
		Thinking: c("#875f00", "#d7af5f"),
		Bad:      c("#c00000", "#ff5f5f"),
		Warn:     c("#af5f00", "#ffaf00"),
		Gold:     c("#9a7b00", "#ffd700"),
		Silver:   c("#6c6c6c", "#c6c6c6"),
		Bronze:   c("#8a4b14", "#d7875f"),
		Providers: []lipgloss.AdaptiveColor{
			c("#005fd7", "#5fafff"), // blue
			c("#d75f00", "#ff875f"), // orange
			c("#008700", "#87d75f"), // green
			c("#af00af", "#ff87ff"), // magenta
			c("#008787", "#5fd7d7"), // teal
			c("#af8700", "#ffd75f"), // yellow
			c("#d70000", "#ff5f87"), // red
			c("#5f5fd7", "#afafff"), // violet
		},
	}
}

// ProviderColor is provider i's colour in every pane, chart and table.
func (p Palette) ProviderColor(i int) lipgloss.AdaptiveColor {
	return p.Providers[i%len(p.Providers)]
}
