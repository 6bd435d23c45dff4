package speedchart

import (
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"tpsrace/ui/theme"
)

// A tool-call race's chart is its figure's timeline: each provider's wait
// (┄) then its call being written (━), as long as the time, ✓ and the time
// where it was valid, ✗ where it never was; no token axis.
func TestTimelinePlotsTheWorkloadsFigure(t *testing.T) {
	ms := time.Millisecond
	m := New([]string{"fast", "slow", "broken"}, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetSize(60, 7)
	m, _ = m.Update(FrameMsg{Until: time.Second, Timeline: &Timeline{Title: "to a complete tool call", Spans: []Span{
		{First: 200 * ms, HasFirst: true, Done: 250 * ms, HasDone: true, Settled: true, Valid: true},
		{First: 500 * ms, HasFirst: true, Done: time.Second, HasDone: true, Settled: true, Valid: true},
		{Settled: true},
	}}})
	lines := strings.Split(m.View(), "\n")
	if !strings.Contains(lines[0], "time to a complete tool call") || strings.Contains(m.View(), "┤") {
		t.Errorf("title or axis:\n%s", m.View())
	}
	fast, slow := lines[1], lines[2]
	if !strings.HasSuffix(strings.TrimSpace(fast), "✓ 250ms") || !strings.HasSuffix(strings.TrimSpace(slow), "✓ 1.00s") || !strings.HasSuffix(strings.TrimSpace(lines[3]), "✗") {
		t.Errorf("figures:\n%s", m.View())
	}
	if strings.Count(fast, "━")+strings.Count(fast, "┄") >= strings.Count(slow, "━")+strings.Count(slow, "┄") ||
		strings.Index(fast, "━") >= strings.Index(slow, "━") {
		t.Errorf("the faster call's bar is not the shorter:\n%s", m.View())
	}
	if !strings.Contains(lines[len(lines)-1], "0s") || !strings.Contains(lines[len(lines)-1], "1.00s") {
		t.Errorf("time axis %q", lines[len(lines)-1])
	}
}

// A provider that failed before its first piece waited until it failed,
// not until now, and wrote nothing: its row stops there, with ✗.
func TestTimelineStopsAFailedRowWhereItFailed(t *testing.T) {
	m := New([]string{"fast", "refused"}, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetSize(60, 6)
	m, _ = m.Update(FrameMsg{Until: time.Second, Timeline: &Timeline{Title: "to a complete tool call", Spans: []Span{
		{First: 200 * time.Millisecond, HasFirst: true},
		{Failed: true, End: 20 * time.Millisecond},
	}}})
	refused := strings.Split(m.View(), "\n")[2]
	if strings.Count(refused, "┄") > 2 || strings.Contains(refused, "━") || !strings.HasSuffix(strings.TrimSpace(refused), "✗") {
		t.Errorf("a provider refused at 20ms of 1s: %q", refused)
	}
}
