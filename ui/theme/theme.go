// Package theme is the dashboard's palettes. Every component builds its
// DefaultStyles from the palette it is given, so the whole screen changes
// together; nobody picks a palette inside a component.
//
//	p := theme.New(theme.Light, lipgloss.HasDarkBackground(), lipgloss.ColorProfile())
//	styles := lane.DefaultStyles(p)
//
// A palette's colours are resolved once, when it is made, to the colours
// the terminal's profile can show (an xterm-256 index, a 16-colour code or
// #rrggbb): lipgloss would otherwise convert a hex colour to the profile on
// every render of every cell. Under NO_COLOR (the Ascii profile) they are
// no colour at all, so nothing may depend on colour alone: every state also
// has a word or a symbol.
package theme

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Name names a palette (--theme).
type Name string

const (
	Auto         Name = ""              // dark or light, by the terminal's background
	Dark         Name = "dark"          // for a dark background
	Light        Name = "light"         // for a light (white) background
	HighContrast Name = "high-contrast" // for a projector: pure colours, bold text, by the background
)

// ParseName checks a --theme value.
func ParseName(s string) (Name, error) {
	switch n := Name(s); n {
	case Auto, Dark, Light, HighContrast:
		return n, nil
	}
	return "", fmt.Errorf("unknown theme %q (want dark, light or high-contrast)", s)
}

// Palette names colours by what they mean, not by their hue.
type Palette struct {
	Text      lipgloss.TerminalColor // body text
	Muted     lipgloss.TerminalColor // labels, secondary text
	Faint     lipgloss.TerminalColor // reasoning text, rules, empty space
	Border    lipgloss.TerminalColor // pane borders
	Focus     lipgloss.TerminalColor // the focused pane's border
	Accent    lipgloss.TerminalColor // titles, the verdict
	Good      lipgloss.TerminalColor // done
	Live      lipgloss.TerminalColor // streaming
	Thinking  lipgloss.TerminalColor // reasoning phase
	Bad       lipgloss.TerminalColor // failures
	Warn      lipgloss.TerminalColor // the simulated-providers banner, the reading-speed marker, the referee's flags on the verdict
	Gold      lipgloss.TerminalColor // 1st to finish
	Silver    lipgloss.TerminalColor // 2nd
	Bronze    lipgloss.TerminalColor // 3rd
	Providers []lipgloss.TerminalColor
	// Background is the screen behind the dashboard. A terminal keeps its
	// own, so the dashboard never paints it; a picture of the dashboard
	// (tpsrace replay --gif, --svg) has no terminal and paints this one.
	Background lipgloss.TerminalColor
	// Bold is whether figures and names are drawn bold everywhere (high
	// contrast): thin strokes vanish on a projector.
	Bold bool
}

// ProviderColor is provider i's colour in every pane, chart and table.
func (p Palette) ProviderColor(i int) lipgloss.TerminalColor {
	return p.Providers[i%len(p.Providers)]
}

// New is palette name for a dark or light background, resolved to profile.
func New(name Name, darkBackground bool, profile termenv.Profile) Palette {
	if name == Auto {
		name = Light
		if darkBackground {
			name = Dark
		}
	}
	var h hexPalette
	switch {
	case name == HighContrast && darkBackground:
		h = highContrastOnDark
	case name == HighContrast:
		h = highContrastOnLight
	case name == Light:
		h = light
	default:
		h = dark
	}
	c := func(hex string) lipgloss.TerminalColor { return resolve(profile, hex) }
	p := Palette{
		Text: c(h.text), Muted: c(h.muted), Faint: c(h.faint), Border: c(h.border), Focus: c(h.focus),
		Accent: c(h.accent), Good: c(h.good), Live: c(h.live), Thinking: c(h.thinking), Bad: c(h.bad),
		Warn: c(h.warn), Gold: c(h.gold), Silver: c(h.silver), Bronze: c(h.bronze), Background: c(h.background),
		Bold: name == HighContrast,
	}
	for _, hex := range h.providers {
		p.Providers = append(p.Providers, c(hex))
	}
	return p
}

// resolve converts hex to profile's colour once, as lipgloss would on every render.
func resolve(profile termenv.Profile, hex string) lipgloss.TerminalColor {
	switch c := profile.Color(hex).(type) {
	case termenv.ANSIColor:
		return lipgloss.ANSIColor(c)
	case termenv.ANSI256Color:
		return lipgloss.ANSIColor(c)
	case termenv.RGBColor:
		return lipgloss.Color(c)
	}
	return lipgloss.NoColor{}
}

type hexPalette struct {
	text, muted, faint, border, focus, accent, good, live, thinking, bad, warn, gold, silver, bronze string
	background                                                                                       string
	providers                                                                                        []string
}

// Every text colour reads on its palette's background at 4.5:1 or better
// (WCAG AA; 7:1 for high contrast), borders at 2:1 (TestPalettesRead).
var (
	dark = hexPalette{
		text: "#e6e6e6", muted: "#a0a0a0", faint: "#626262", border: "#4e4e4e", focus: "#af87ff", accent: "#af87ff",
		good: "#5fd787", live: "#5fafff", thinking: "#d7af5f", bad: "#ff5f5f", warn: "#ffaf00",
		gold: "#ffd700", silver: "#c6c6c6", bronze: "#d7875f", background: "#121212",
		providers: []string{"#5fafff", "#ff875f", "#87d75f", "#ff87ff", "#5fd7d7", "#ffd75f", "#ff5f87", "#afafff"},
	}
	light = hexPalette{
		text: "#1a1a1a", muted: "#5f5f5f", faint: "#707070", border: "#a8a8a8", focus: "#5f00d7", accent: "#5f00d7",
		good: "#006b35", live: "#0050b4", thinking: "#7a5600", bad: "#c00000", warn: "#9a4f00",
		gold: "#7a6100", silver: "#5f5f5f", bronze: "#8a4b14", background: "#ffffff",
		providers: []string{"#0050b4", "#b34700", "#006b00", "#9a009a", "#006b6b", "#7a6100", "#c00000", "#4b4bc0"},
	}
	highContrastOnDark = hexPalette{
		text: "#ffffff", muted: "#e4e4e4", faint: "#bcbcbc", border: "#ffffff", focus: "#ffff00", accent: "#ffff00",
		good: "#00ff00", live: "#00ffff", thinking: "#ffaf00", bad: "#ff5f5f", warn: "#ffff00",
		gold: "#ffd700", silver: "#e4e4e4", bronze: "#ff8700", background: "#000000",
		providers: []string{"#00ffff", "#ff8700", "#00ff00", "#ff5fff", "#ffff00", "#ffffff", "#ff5f5f", "#87afff"},
	}
	highContrastOnLight = hexPalette{
		text: "#000000", muted: "#262626", faint: "#3a3a3a", border: "#000000", focus: "#0000af", accent: "#0000af",
		good: "#005f00", live: "#0000af", thinking: "#5f3a00", bad: "#af0000", warn: "#5f3a00",
		gold: "#5f4b00", silver: "#3a3a3a", bronze: "#6b3000", background: "#ffffff",
		providers: []string{"#0000af", "#8a3300", "#005f00", "#7a007a", "#005050", "#5f4b00", "#af0000", "#3a3aa0"},
	}
)
