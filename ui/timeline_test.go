package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/probes"
	"tpsrace/workload"
)

// The tool-call timeline times each call as it arrives, before the race
// settles: the wait to the first delta, then the call written until its
// arguments validate, with its time (metrics.ToolCallSoFar's, through
// live.Snapshot), not blank until every stream has ended.
func TestTimelineTimesTheCallAsItArrives(t *testing.T) {
	cfg, _, _ := recordedRace()
	cfg.Workload, _ = workload.Named(workload.ToolCall)
	m := New(Options{Config: cfg})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m.s.begin(0, nil)
	m.newPanes()
	m.relayout()
	m = playTo(m, nil, 400*ms)
	deltas := []probes.ToolDelta{{At: 250 * ms, Name: "get_weather"}, {At: 300 * ms, Arguments: `{"city":"Par`}, {At: 350 * ms, Arguments: `is"}`}}
	row := func() string {
		m.refresh()
		for _, line := range strings.Split(ansi.Strip(m.chart.View()), "\n") {
			if strings.Contains(line, "fast-wafer") {
				return line
			}
		}
		t.Fatalf("no fast-wafer row in the chart:\n%s", ansi.Strip(m.chart.View()))
		return ""
	}
	for i, want := range []string{"┄", "━", "✓ 350ms"} {
		m = update(m, batchMsg{race: m.s.id, updates: []probes.Update{{Provider: 0, Tool: &deltas[i]}}})
		if got := row(); !strings.Contains(got, want) || i < 2 && strings.Contains(got, "✓") {
			t.Errorf("after delta %d: %q, want %q (and no ✓ before the arguments validate)", i+1, got, want)
		}
	}
}
