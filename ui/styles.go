package ui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/ui/lane"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/llamastats"
	"tpsrace/ui/speedchart"
	"tpsrace/ui/theme"
	"tpsrace/ui/workloadview"
)

// Styles are every style of the dashboard, all from one palette.
type Styles struct {
	Title     lipgloss.Style
	Simulated lipgloss.Style // the "SIMULATED providers" banner
	Status    lipgloss.Style
	Paused    lipgloss.Style
	Label     lipgloss.Style
	Prompt    lipgloss.Style
	Message   lipgloss.Style
	Error     lipgloss.Style
	Editor    lipgloss.Style             // the prompt editor's box
	Verdict   lipgloss.Style             // the presenter's podium verdict
	Step      lipgloss.Style             // the podium's steps
	Provider  func(i int) lipgloss.Style // provider i's name and figures in presenter mode

	Palette     theme.Palette
	Lane        lane.Styles // accented per provider with Palette.ProviderColor
	Leaderboard leaderboard.Styles
	Chart       speedchart.Styles
	Workload    workloadview.Styles
	Stats       llamastats.Styles
	Help        help.Styles
}

// DefaultStyles are the dashboard's styles, every component's from palette p.
func DefaultStyles(p theme.Palette) Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	h := help.New().Styles
	h.ShortKey, h.FullKey = fg(p.Accent).Bold(true), fg(p.Accent).Bold(true)
	h.ShortDesc, h.FullDesc = fg(p.Muted), fg(p.Muted)
	h.ShortSeparator, h.FullSeparator, h.Ellipsis = fg(p.Faint), fg(p.Faint), fg(p.Faint)
	return Styles{
		Title:       fg(p.Accent).Bold(true),
		Simulated:   fg(p.Warn).Bold(true).Reverse(true),
		Status:      fg(p.Text).Bold(p.Bold),
		Paused:      fg(p.Warn).Bold(true),
		Label:       fg(p.Muted),
		Prompt:      fg(p.Text).Italic(true),
		Message:     fg(p.Good),
		Error:       fg(p.Bad).Bold(true),
		Editor:      lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Focus).Padding(0, 1),
		Verdict:     fg(p.Accent).Bold(true),
		Step:        fg(p.Border),
		Provider:    func(i int) lipgloss.Style { return fg(p.ProviderColor(i)).Bold(true) },
		Palette:     p,
		Lane:        lane.DefaultStyles(p),
		Leaderboard: leaderboard.DefaultStyles(p),
		Chart:       speedchart.DefaultStyles(p),
		Workload:    workloadview.DefaultStyles(p),
		Stats:       llamastats.DefaultStyles(p),
		Help:        h,
	}
}
