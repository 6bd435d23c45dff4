package leaderboard

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"tpsrace/metrics"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
	"tpsrace/workload"
)

// sweepOf is a provider's settled long-context figures over one stream per
// size: TTFT at sizes[k] is ttft[k].
func sweepOf(sizes []int, ttft ...time.Duration) live.Snapshot {
	w, _ := workload.Named(workload.LongContext)
	races := make([][]metrics.Stream, len(sizes))
	for k, n := range sizes {
		races[k] = []metrics.Stream{{Figures: metrics.Figures{TTFT: ttft[k], HasTTFT: true, OutputTPS: 100, HasOutputTPS: true,
			E2E: ttft[k] + time.Second, Completed: true}, InputTokens: n}}
	}
	run := &live.WorkloadRun{Name: workload.LongContext, Step: len(sizes), Steps: 3, InputTokens: sizes[len(sizes)-1], Finished: len(sizes),
		OnScreen: w.Steps()[(len(sizes)-1)%3], Spec: w,
		WorkloadRuns: metrics.WorkloadRunsOf(w, races, 0)}
	return live.Snapshot{Status: live.Done, Settled: true, HasSpeed: true, Speed: 100, HasTTFT: true, TTFT: ttft[len(ttft)-1],
		Elapsed: ttft[len(ttft)-1] + time.Second, Tokens: 100, Workload: run}
}

// The prefill cell without an estimate says why, in metrics.PrefillTPS's
// words: one size raced so far, a TTFT that did not grow with the input, or
// growth within the TTFT's noise.
func TestPrefillCellSaysWhyThereIsNoEstimate(t *testing.T) {
	ms := time.Millisecond
	// at is TTFT = base + size ÷ 30,000 tok/s, plus noise[k] at sizes[k].
	at := func(base time.Duration, sizes []int, noise ...time.Duration) []time.Duration {
		var ttft []time.Duration
		for k, n := range sizes {
			ttft = append(ttft, base+time.Duration(n)*time.Second/30000+noise[k])
		}
		return ttft
	}
	sweep, repeated := []int{1000, 8000, 32000}, []int{1000, 1000, 8000, 8000, 32000, 32000}
	names := []string{"growing", "one-size", "flat", "noisy"}
	figs := []live.Snapshot{
		sweepOf(sweep, at(250*ms, sweep, 0, 0, 0)...),
		sweepOf(sweep[:1], 600*ms),
		sweepOf(sweep, 600*ms, 600*ms+100*time.Microsecond, 600*ms+600*time.Microsecond),
		sweepOf(repeated, at(600*ms, repeated, 400*ms, -400*ms, -400*ms, 400*ms, 400*ms, -400*ms)...),
	}
	want := map[string]string{"growing": "≈ 30,000", "one-size": "- 1 size", "flat": "- flat", "noisy": "- noisy"}
	for _, width := range []int{80, 160} {
		b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		b.SetSize(width, 6)
		b, _ = b.Update(FrameMsg{Figures: figs})
		view := ansi.Strip(b.View())
		for name, cell := range want {
			row := ""
			for _, line := range strings.Split(view, "\n") {
				if f := strings.Fields(line); row == "" && len(f) > 1 && f[1] == name {
					row = line
				}
			}
			if !strings.Contains(row, " "+cell+" ") && !strings.HasSuffix(row, " "+cell) {
				t.Errorf("width %d: %s's row %q lacks %q:\n%s", width, name, row, cell, view)
			}
		}
	}
}
