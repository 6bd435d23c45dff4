package lane

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"tpsrace/ui/theme"
)

// With --finish-at N, a lane whose answer ended before N tokens says so in
// its title instead of a finish place (nobody wins by writing less); one
// that got there keeps its place.
func TestStoppedShortBadge(t *testing.T) {
	p := streamed(true) // 203 tokens
	for _, c := range []struct {
		finishAt  int
		want, not string
	}{
		{300, "✗ short 203/300", "✓ 1st"},
		{100, "✓ 1st", "short"},
		{0, "✓ 1st", "short"},
	} {
		m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		m.SetSize(60, 12)
		f := p.Figures(1500 * ms)
		if c.finishAt > 0 {
			p.RaceTo(&f, c.finishAt)
		}
		m, _ = m.Update(FrameMsg{Now: 1500 * ms, Figures: f, Place: 1, Finish: c.finishAt})
		top := strings.Split(m.View(), "\n")[0]
		if !strings.Contains(top, c.want) || strings.Contains(top, c.not) {
			t.Errorf("--finish-at %d: title %q, want %q and no %q", c.finishAt, top, c.want, c.not)
		}
	}
}
