package theme

import (
	"math"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b string) float64 {
	lum := func(hex string) float64 {
		c, _ := colorful.Hex(hex)
		ch := func(v float64) float64 {
			if v <= 0.03928 {
				return v / 12.92
			}
			return math.Pow((v+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Text reads on its palette's background: white for the light palettes, black
// or near it for the dark ones.
func TestPalettesRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    hexPalette
		bg   string
		text float64 // least contrast of any text colour
	}{
		{"light", light, "#ffffff", 4.5},
		{"high-contrast on light", highContrastOnLight, "#ffffff", 7},
		{"dark", dark, "#121212", 4.5},
		{"high-contrast on dark", highContrastOnDark, "#000000", 7},
	} {
		if tc.h.background != tc.bg { // a picture paints it (replay --gif, --svg)
			t.Errorf("%s: background %s, want %s", tc.name, tc.h.background, tc.bg)
		}
		texts := map[string]string{"text": tc.h.text, "muted": tc.h.muted, "good": tc.h.good, "live": tc.h.live,
			"thinking": tc.h.thinking, "bad": tc.h.bad, "warn": tc.h.warn, "gold": tc.h.gold, "silver": tc.h.silver,
			"bronze": tc.h.bronze, "accent": tc.h.accent}
		for i, p := range tc.h.providers {
			texts["provider "+string(rune('1'+i))] = p
		}
		for what, hex := range texts {
			if r := contrast(hex, tc.bg); r < tc.text {
				t.Errorf("%s: %s %s on %s: contrast %.2f, want ≥ %.1f", tc.name, what, hex, tc.bg, r, tc.text)
			}
		}
		// The faint text (reasoning) and borders need less, but must show.
		if r := contrast(tc.h.faint, tc.bg); r < 2.5 {
			t.Errorf("%s: faint %s: contrast %.2f", tc.name, tc.h.faint, r)
		}
		if r := contrast(tc.h.border, tc.bg); r < 2 {
			t.Errorf("%s: border %s: contrast %.2f", tc.name, tc.h.border, r)
		}
	}
}

func TestNewResolvesToTheProfile(t *testing.T) {
	want := lipgloss.ANSIColor(termenv.ANSI256.Color(dark.text).(termenv.ANSI256Color))
	if got := New(Dark, true, termenv.ANSI256).Text; got != want {
		t.Errorf("dark text in 256 colours: %#v, want %v, termenv's own conversion", got, want)
	}
	if got := New(Light, true, termenv.TrueColor).Text; got != lipgloss.Color("#1a1a1a") {
		t.Errorf("light text in true colour: %#v (light is chosen even on a dark background)", got)
	}
	if got := New(Auto, false, termenv.TrueColor).Text; got != lipgloss.Color("#1a1a1a") {
		t.Errorf("auto on a light background: %#v", got)
	}
	if got := New(HighContrast, true, termenv.Ascii); got.Text != (lipgloss.NoColor{}) || !got.Bold {
		t.Errorf("high contrast under NO_COLOR: %#v", got)
	}
	if _, err := ParseName("solarized"); err == nil {
		t.Error("an unknown theme is accepted")
	}
}

// Rendering with a resolved colour costs no conversion; with a hex colour
// lipgloss converts it to the profile on every render.
func BenchmarkRenderHex(b *testing.B)      { benchRender(b, lipgloss.Color(dark.live)) }
func BenchmarkRenderResolved(b *testing.B) { benchRender(b, New(Dark, true, termenv.ANSI256).Live) }

func benchRender(b *testing.B, c lipgloss.TerminalColor) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.ANSI256)
	s := r.NewStyle().Foreground(c)
	for range b.N {
		s.Render("tok/s")
	}
}
