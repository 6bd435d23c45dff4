package ui

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"tpsrace/metrics"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
	"tpsrace/tokens"
	"tpsrace/ui/leaderboard"
	"tpsrace/workload"
)

// --heats 3: three races back to back, "heat N/3" in the header, and after
// each the verdict over the heats so far, the bench's own text.
func TestHeats(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 30, "sim:ttft=10ms,tps=2000,tokens=30", "sim:ttft=10ms,tps=500,tokens=30")
	tm := startProgram(t, Options{Config: cfg, Heats: 3})
	waitFor(t, tm, "heat 2/3")
	waitFor(t, tm, "heat 3/3")
	waitFor(t, tm, "heat 3/3: p1 is faster than p2 in 3/3 runs; output speed ratio")
	m := quit(t, tm)
	if len(m.s.history) != 3 {
		t.Fatalf("%d races, want the 3 heats", len(m.s.history))
	}
	if strings.Contains(m.View(), "heat 4") {
		t.Error("a fourth heat started")
	}
}

// A heat of a workload is a whole run, as a bench run is: --heats 2 of a
// two-size long-context sweep races four times (each heat both sizes), the
// header counts heats, not races, and the heats column is the figure the
// verdict compares, the prefill estimate, under its own name. Those are
// checked directly; who the verdict names faster is a reading of the wall
// clock (each heat's estimate from two TTFTs), held with testenv.Timed.
func TestHeatsOfAWorkloadAreWholeRuns(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := withWorkload(simConfig(srv, "Say hi.", 20, "sim:ttft=10ms,tps=2000,prefill=20000", "sim:ttft=10ms,tps=2000,prefill=5000"),
		workload.LongContext, func(w *workload.Workload) { w.InputTokens = []int{1000, 4000} })
	testenv.Timed(t, func(a *testenv.Attempt) {
		tm := teatest.NewTestModel(t, New(Options{Config: cfg, Heats: 2}), teatest.WithInitialTermSize(200, 50))
		waitFor(t, tm, "heat 1/2: ")
		waitFor(t, tm, "heat 2/2: ") // the verdict over both heats
		m := quit(t, tm)
		a.Load = saturation(m.s.history)
		if len(m.s.history) != 4 {
			t.Fatalf("%d races, want 2 heats of 2 sizes", len(m.s.history))
		}
		view := m.View()
		if !strings.Contains(view, "heats prefill") || strings.Contains(view, "heats tok/s") || strings.Contains(view, "heat 3") {
			t.Errorf("after 2 heats of the sweep:\n%s", view)
		}
		if want := "heat 2/2: p1 is faster than p2 in 2/2 runs; prefill speed ratio"; !strings.Contains(view, want) {
			a.Missf("the verdict after 2 heats is not %q…:\n%s", want, view)
		}
	})
}

// heatCell is a heats column's "median ±spread%" cell: the median's number
// and unit, and the spread in percent ("<1" read as 0).
var heatCell = regexp.MustCompile(`([\d,.]+)(ms|s|) ±(<?\d+)%`)

// While heats run, the leaderboard shows beside the live race each
// provider's median and spread over the heats so far; after the last the
// rows rank over the heats. The figures on screen are the median and the
// farthest heat's distance from it of each heat's own output speed and
// TTFT, recomputed here from the recorded streams (metrics.Compute).
func TestHeatsLeaderboardShowsMedianAndSpread(t *testing.T) {
	noLeaks(t)
	srv := simtest.Start(t, sim.Options{})
	cfg := simConfig(srv, "Hi.", 60, "sim:ttft=30ms,tps=400,tokens=60", "sim:ttft=5ms,tps=1600,tokens=60")
	tm := teatest.NewTestModel(t, New(Options{Config: cfg, Heats: 3}), teatest.WithInitialTermSize(200, 50))
	waitFor(t, tm, "heats tok/s") // heat 1 has ended: its figures stand beside heat 2
	waitFor(t, tm, "heat 3/3: p2 is faster than p1 in 3/3 runs")
	m := quit(t, tm)
	view := m.View()

	promptTokens := tokens.Count(cfg.Prompt)
	rows := map[string]string{}
	for _, line := range strings.Split(view, "\n") {
		if f := strings.Fields(line); len(f) > 2 && (f[1] == "p1" || f[1] == "p2") && strings.Contains(line, "±") {
			rows[f[1]] = line
			if f[1] == "p2" && rows["p1"] == "" {
				rows["first"] = "p2"
			}
		}
	}
	if rows["first"] != "p2" {
		t.Errorf("after the last heat the fastest over the heats ranks first:\n%s", view)
	}
	for i, name := range []string{"p1", "p2"} {
		cells := heatCell.FindAllStringSubmatch(rows[name], -1)
		if len(cells) < 2 {
			t.Fatalf("%s: no speed and TTFT cells in %q:\n%s", name, rows[name], view)
		}
		var speeds, ttfts []float64
		for _, race := range m.s.history {
			f := metrics.Compute(&race[i][0], promptTokens)
			speeds, ttfts = append(speeds, f.OutputTPS), append(ttfts, f.TTFT.Seconds()*1000)
		}
		for k, want := range []metrics.Spread{metrics.SpreadOf(speeds), metrics.SpreadOf(ttfts)} {
			got, _ := strconv.ParseFloat(strings.ReplaceAll(cells[k][1], ",", ""), 64)
			if cells[k][2] == "s" {
				got *= 1000
			}
			pct, _ := strconv.Atoi(strings.TrimPrefix(cells[k][3], "<"))
			wantPct := math.Round(want.Within() * 100)
			// The screen rounds (tok/s to 1, TTFT to 3 digits): a cell is
			// the recomputed figure to that rounding.
			if want.Runs != 3 || math.Abs(got-want.Median) > math.Max(1, want.Median/100) || math.Abs(float64(pct)-wantPct) > 1 {
				t.Errorf("%s %s: screen %q, want median %.2f %s (%d heats)", name, []string{"speed", "TTFT"}[k], cells[k][0],
					want.Median, leaderboard.Within(want.Within()), want.Runs)
			}
		}
	}
	// The known speeds (1600 vs 400 tok/s), within what loopback timing allows.
	var medians [2]float64
	for i := range medians {
		var speeds []float64
		for _, race := range m.s.history {
			speeds = append(speeds, metrics.Compute(&race[i][0], promptTokens).OutputTPS)
		}
		medians[i], _ = metrics.Median(speeds)
	}
	if medians[1] < 2*medians[0] {
		t.Errorf("median speeds %v: p2 (1600 tok/s) should be about 4× p1 (400 tok/s)", medians)
	}
}
