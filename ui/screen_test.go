package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"tpsrace/config"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/ui/theme"
)

// Each theme reaches the screen of the real program: its text colour is
// drawn, the other themes' are not.
func TestThemesReachTheScreen(t *testing.T) {
	noLeaks(t)
	lipgloss.SetColorProfile(termenv.TrueColor)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	names := []theme.Name{theme.Dark, theme.Light, theme.HighContrast}
	sequence := func(n theme.Name) string {
		c := theme.New(n, lipgloss.HasDarkBackground(), termenv.TrueColor).Text.(lipgloss.Color)
		return termenv.CSI + termenv.TrueColor.Color(string(c)).Sequence(false) + "m"
	}
	srv := simtest.Start(t, sim.Options{})
	for _, name := range names {
		cfg := simConfig(srv, "Hi.", 50, "sim:ttft=10ms,tps=2000,tokens=20")
		tm := startProgram(t, Options{Config: cfg, Theme: name})
		var screen strings.Builder
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			screen.Write(b)
			return strings.Contains(screen.String(), "streamed at")
		}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
		quit(t, tm)
		for _, other := range names {
			if drawn := strings.Contains(screen.String(), sequence(other)); drawn != (other == name) {
				t.Errorf("theme %s: %s's text colour drawn: %v", name, other, drawn)
			}
		}
	}
}

// At 80×24 the skipped providers are noted in the header and the footer
// keeps `? help` and `q quit`, in the real program against the simulator.
func TestSkippedAndFooterAt80x24(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 50, "sim:ttft=10ms,tps=2000,tokens=20", "sim:ttft=10ms,tps=500,tokens=20")
	cfg.Skipped = []config.Notice{{Provider: "groq", Where: "providers.yaml:3:5", Reason: "GROQ_API_KEY is not set"}}
	tm := teatest.NewTestModel(t, New(Options{Config: cfg}), teatest.WithInitialTermSize(80, 24))
	waitForAll(t, tm, "1 skipped: key not set · ? lists them", "faster than", "? help", "q quit")
	m := quit(t, tm)
	lines := strings.Split(m.View(), "\n")
	if len(lines) != 24 || !strings.Contains(lines[0], "1 skipped: key not set · ? lists them") || !strings.HasSuffix(lines[23], "q quit") {
		t.Errorf("the final screen:\n%s", m.View())
	}
}
