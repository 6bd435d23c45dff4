package speedchart

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"tpsrace/ui/theme"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// A steady 300 tok/s is drawn on the row labelled 300: the axis labels and
// the lines agree, from zero, on a linear scale.
func TestLinesSitOnTheirLabels(t *testing.T) {
	steady := make([]float64, 40)
	idle := make([]float64, 40)
	for i := range steady {
		steady[i] = 300
	}
	c := New([]string{"fast", "idle"}, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	c.SetSize(60, 11)
	c, _ = c.Update(FrameMsg{Until: 2 * time.Second, Series: [][]float64{steady, idle}})
	lines := strings.Split(c.View(), "\n")
	if len(lines) != 11 {
		t.Fatalf("%d lines, want 11:\n%s", len(lines), c.View())
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != 60 {
			t.Errorf("line %q is %d wide", l, ansi.StringWidth(l))
		}
	}
	row := func(label string) string {
		for _, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), label+"│") {
				return l
			}
		}
		t.Fatalf("no row labelled %s:\n%s", label, c.View())
		return ""
	}
	if r := row("300"); !strings.Contains(r, "───") {
		t.Errorf("the 300 tok/s line is not on the row labelled 300:\n%s", c.View())
	}
	if r := row("0"); !strings.Contains(r, "───") {
		t.Errorf("the idle provider is not on the zero row:\n%s", c.View())
	}
	if !strings.Contains(lines[0], "━ fast") || !strings.Contains(lines[len(lines)-1], "2.00s") {
		t.Errorf("legend or time axis missing:\n%s", c.View())
	}
}

func TestTinySizesDrawBlank(t *testing.T) {
	for _, size := range [][2]int{{0, 0}, {10, 3}, {60, 2}} {
		c := New([]string{"a"}, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		c.SetSize(size[0], size[1])
		if strings.TrimSpace(c.View()) != "" {
			t.Errorf("%v: %q", size, c.View())
		}
	}
}
