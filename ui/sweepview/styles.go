package sweepview

import (
	"github.com/charmbracelet/lipgloss"

	"tpsrace/ui/theme"
)

// Styles of the sweep view. The charts' cells take lipgloss styles
// (ntcharts' canvas), so these are styles, not draw.Paints.
type Styles struct {
	Title, Label, Axis, Verdict, Warn, Good lipgloss.Style
	Providers                               []lipgloss.Style // provider i's curve: Providers[i%len(Providers)]
}

// DefaultStyles are built from palette p, bold throughout under high
// contrast (p.Bold), as the dashboard's are.
func DefaultStyles(p theme.Palette) Styles {
	s := lipgloss.NewStyle().Bold(p.Bold)
	st := Styles{
		Title: s.Foreground(p.Accent).Bold(true), Label: s.Foreground(p.Muted), Axis: s.Foreground(p.Border),
		Verdict: s.Foreground(p.Accent), Warn: s.Foreground(p.Warn), Good: s.Foreground(p.Good),
	}
	for _, c := range p.Providers {
		st.Providers = append(st.Providers, s.Foreground(c))
	}
	return st
}

func (s Styles) provider(i int) lipgloss.Style { return s.Providers[i%len(s.Providers)] }
