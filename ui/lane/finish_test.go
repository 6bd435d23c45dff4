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
		f := p.Snapshot(1500 * ms)
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

// With --finish-at N, the track's finish time is when the lane crossed the
// line (its time to N, as the leaderboard ranks), not its whole answer's.
func TestTrackFinishesAtTheLine(t *testing.T) {
	p := streamed(true) // 3 reasoning tokens at 100ms, then a token every 5ms from 400ms; ends at 1.50s
	for _, c := range []struct {
		finishAt int
		want     string
	}{
		{100, "┃ ✓ 880ms"}, // the 100th token: the 97th of the answer, at 400ms + 96×5ms
		{0, "┃ ✓ 1.50s"},
	} {
		m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		m.SetSize(60, 12)
		f := p.Snapshot(1500 * ms)
		finish := 203
		if c.finishAt > 0 {
			p.RaceTo(&f, c.finishAt)
			finish = c.finishAt
		}
		m, _ = m.Update(FrameMsg{Now: 1500 * ms, Figures: f, Place: 1, Finish: finish})
		if v := m.View(); !strings.Contains(v, c.want) {
			t.Errorf("--finish-at %d: no %q in\n%s", c.finishAt, c.want, v)
		}
	}
}
