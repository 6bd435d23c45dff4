package leaderboard

import (
	"strings"
	"testing"
	"time"

	"github.com/muesli/termenv"

	"tpsrace/metrics"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

// The heats columns show each provider's median ± spread over the heats;
// while the heat on screen runs the rows keep its live order (the race),
// once it has ended they rank over the heats (the verdict's order). At 80
// columns the speed and TTFT over the heats stay.
func TestHeatsColumns(t *testing.T) {
	over := []metrics.Over{
		{Metric: metrics.VerdictMetric, Speed: metrics.SpreadOf([]float64{1893, 1820, 1960}), TTFT: metrics.SpreadOf([]float64{float64(200 * time.Millisecond), float64(210 * time.Millisecond)})},
		{Metric: metrics.VerdictMetric, Speed: metrics.SpreadOf([]float64{610}), TTFT: metrics.SpreadOf([]float64{float64(90 * time.Millisecond)})},
	}
	b := New([]string{"alpha", "bravo"}, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(80, 5) // a row for the verdict over the heats under the race's
	b.SetHeats(Heats{Of: 3, Done: 3, Over: over, Order: []int{0, 1}})
	running := []live.Snapshot{
		{Status: live.Streaming, HasSpeed: true, Speed: 500, HasTTFT: true, TTFT: 300 * time.Millisecond},
		{Status: live.Streaming, HasSpeed: true, Speed: 700, HasTTFT: true, TTFT: 80 * time.Millisecond},
	}
	b, _ = b.Update(FrameMsg{Figures: running})
	rows := strings.Split(b.View(), "\n")
	for _, want := range []string{"heats tok/s", "heats TTFT"} {
		if !strings.Contains(rows[0], want) {
			t.Errorf("header %q lacks %q", rows[0], want)
		}
	}
	// 1,893 is the median; 1,820 the farthest, 3.9% below; bravo ran one heat.
	if !strings.Contains(rows[1], "bravo") || !strings.Contains(rows[1], "700") || !strings.Contains(rows[1], "610  ") ||
		!strings.Contains(rows[2], "alpha") || !strings.Contains(rows[2], "1,893 ±4%") || !strings.Contains(rows[2], "205ms ±2%") {
		t.Errorf("while the heat runs, its order and the standing beside it:\n%s", b.View())
	}
	for i := range running {
		running[i].Status, running[i].Settled = live.Done, true
	}
	b, _ = b.Update(FrameMsg{Figures: running, Ended: true})
	if rows := strings.Split(b.View(), "\n"); !strings.Contains(rows[1], "alpha") || !strings.Contains(rows[2], "bravo") ||
		!strings.HasPrefix(rows[3], "▶ this race: bravo is ") {
		t.Errorf("once the heat has ended, the order over the heats:\n%s", b.View())
	}
	b.SetHeats(Heats{Done: 3, Over: over[:1], Order: []int{0}}) // not these providers: no heats columns
	if strings.Contains(b.View(), "heats") {
		t.Errorf("mismatched heats shown:\n%s", b.View())
	}
}

func TestWithin(t *testing.T) {
	for w, want := range map[float64]string{0: "±0%", 0.004: "±<1%", 0.039: "±4%", 0.5: "±50%"} {
		if got := Within(w); got != want {
			t.Errorf("Within(%v) = %q, want %q", w, got, want)
		}
	}
}

// With --finish-at N the heats column is the time to N, the figure the
// verdict compares; a provider that stopped short in every heat has none.
func TestHeatsColumnsToN(t *testing.T) {
	ms := float64(time.Millisecond)
	over := []metrics.Over{{Metric: metrics.FinishMetric, Time: metrics.SpreadOf([]float64{50 * ms, 25 * ms, 100 * ms})}, {Metric: metrics.FinishMetric}}
	b := New([]string{"alpha", "bravo"}, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(100, 4)
	b.SetHeats(Heats{Done: 3, Over: over, Order: []int{0, 1}, FinishAt: 100})
	b, _ = b.Update(FrameMsg{Figures: []live.Snapshot{{FinishAt: 100}, {FinishAt: 100}}})
	rows := strings.Split(b.View(), "\n")
	if !strings.Contains(rows[0], "heats to 100") || !strings.Contains(rows[1], "50ms ±100%") || strings.Contains(rows[2], "±") {
		t.Errorf("--finish-at 100 heats:\n%s", b.View())
	}
}

// Over a workload's heats the column names the workload's figure and shows
// it as what it is: the prefill estimate in tok/s, a tool call's time as a
// time (never "tok/s").
func TestHeatsColumnsOfWorkloads(t *testing.T) {
	ms := float64(time.Millisecond)
	for _, c := range []struct {
		over         metrics.Over
		header, cell string
	}{
		{metrics.Over{Metric: metrics.PrefillMetric, Speed: metrics.SpreadOf([]float64{2000, 1900})}, "heats prefill", "1,950 ±3%"},
		{metrics.Over{Metric: metrics.ToolCallMetric, Time: metrics.SpreadOf([]float64{250 * ms})}, "heats call", "250ms"},
		{metrics.Over{Metric: metrics.ConversationMetric, Time: metrics.SpreadOf([]float64{2500 * ms})}, "heats conv", "2.50s"},
	} {
		b := New([]string{"alpha"}, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		b.SetSize(100, 3)
		b.SetHeats(Heats{Done: 2, Over: []metrics.Over{c.over}, Order: []int{0}})
		b, _ = b.Update(FrameMsg{Figures: []live.Snapshot{{}}})
		rows := strings.Split(b.View(), "\n")
		if !strings.Contains(rows[0], c.header) || strings.Contains(rows[0], "heats tok/s") || !strings.Contains(rows[1], c.cell) {
			t.Errorf("%s heats:\n%s", c.over.Metric, b.View())
		}
	}
}
