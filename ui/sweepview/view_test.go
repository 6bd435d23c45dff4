package sweepview

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"tpsrace/config"
	"tpsrace/ui/theme"
)

func sized(m Model, w, h int) Model {
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model)
}

// The recorded sweep at the sizes the issue checks and larger, on the
// dashboard and in presenter mode: goldens of the whole screen.
func TestGolden(t *testing.T) {
	for _, present := range []bool{false, true} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}} {
			t.Run(fmt.Sprintf("present=%v/%dx%d", present, size[0], size[1]), func(t *testing.T) {
				view := sized(recorded(t, present), size[0], size[1]).View()
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// Every size shows the curves, the knee (◆), the level tpsrace may have
// bent (○) and the verdict, and nothing wider or taller than the window.
func TestEverySizeShowsTheKneeAndTheVerdict(t *testing.T) {
	for _, present := range []bool{false, true} {
		for _, size := range [][2]int{{80, 24}, {100, 30}, {160, 48}, {240, 60}} {
			m := sized(recorded(t, present), size[0], size[1])
			view := m.View()
			lines := strings.Split(view, "\n")
			if len(lines) > size[1] {
				t.Errorf("%v: %d lines, taller than %d", size, len(lines), size[1])
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%v: a line %d wide: %q", size, w, l)
				}
			}
			flat := strings.Join(strings.Fields(view), " ")
			for _, want := range []string{"◆", "○", "C=2", "two-slots saturates at C=2", "eight-slots", "1,407"} {
				if !strings.Contains(flat, want) {
					t.Errorf("present=%v %v: no %q in\n%s", present, size, want, view)
				}
			}
		}
	}
}

// A sweep climbing in a narrow window says where it is in fewer words
// rather than lose the end of the line: "racing C=8 (4 of 5)" was cut at
// 80 columns to "racing C=8 (4 of".
func TestNarrowStatusKeepsTheClimb(t *testing.T) {
	opts := Options{Config: &config.Config{Providers: []config.Provider{{Name: "p", Model: "sim:gpu"}}}, Levels: []int{1, 2, 4, 8, 16}, Palette: theme.New(theme.Auto, true, termenv.Ascii)}
	m := Model{opts: opts, styles: DefaultStyles(opts.Palette)} // no climb: the status alone
	m.level, m.done = levelStartMsg{concurrency: 8, index: 3, streams: 32}, 12
	for _, tc := range []struct {
		width int
		want  string
	}{{160, "concurrency sweep C=1,2,4,8,16 · racing C=8 (4 of 5): 12/32 streams"}, {80, "sweep C=1,2,4,8,16 · C=8 (4/5) 12/32 streams"}} {
		m.width = tc.width
		status := ansi.Strip(m.status())
		if !strings.HasSuffix(status, tc.want) || ansi.StringWidth(status) > tc.width {
			t.Errorf("at %d columns: %q, want it to end %q within the width", tc.width, status, tc.want)
		}
	}
}
