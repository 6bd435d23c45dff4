package metrics

import (
	"math"
	"testing"
	"time"
)

// Known runs: the median, the range, and the farthest run's distance from
// the median; NaN runs (no figure) left out.
func TestSpreadOf(t *testing.T) {
	nan := math.NaN()
	s := SpreadOf([]float64{1900, nan, 1800, 2000, 1950, 1700})
	if s != (Spread{Median: 1900, Min: 1700, Max: 2000, Runs: 5}) {
		t.Errorf("SpreadOf = %+v", s)
	}
	if w := s.Within(); math.Abs(w-200.0/1900) > 1e-12 { // 1700 is the farthest, 200 below
		t.Errorf("Within = %v, want %v", w, 200.0/1900)
	}
	if one := SpreadOf([]float64{nan, 42}); one != (Spread{Median: 42, Min: 42, Max: 42, Runs: 1}) || one.Within() != 0 {
		t.Errorf("one run: %+v, within %v", one, one.Within())
	}
	if none := SpreadOf([]float64{nan}); none.Runs != 0 || none.Within() != 0 {
		t.Errorf("no run: %+v", none)
	}
	if even := SpreadOf([]float64{10, 20, 30, 40}); even.Median != 25 || even.Within() != 0.6 {
		t.Errorf("even runs: %+v, within %v", even, even.Within())
	}
}

// A provider's runs as the verdict takes them: per run output speed (NaN:
// none), TTFT and total (0: none); with --finish-at, the time to N instead
// of the speed, per run N ÷ the run's rate.
func TestOverRuns(t *testing.T) {
	c := Contender{Name: "alpha",
		Speeds: []float64{2000, 1000, math.NaN(), 4000},
		TTFT:   []time.Duration{300 * ms, 100 * ms, 0, 200 * ms},
		Total:  []time.Duration{time.Second, 2 * time.Second, 0, 1500 * ms}}
	o := OverRuns(c, VerdictMetric, 0)
	if o.Speed != (Spread{Median: 2000, Min: 1000, Max: 4000, Runs: 3}) || o.Speed.Within() != 1 {
		t.Errorf("speed %+v", o.Speed)
	}
	if o.TTFT != (Spread{Median: float64(200 * ms), Min: float64(100 * ms), Max: float64(300 * ms), Runs: 3}) {
		t.Errorf("TTFT %+v", o.TTFT)
	}
	if o.Total.Median != float64(1500*ms) || o.Total.Runs != 3 || o.Time.Runs != 0 {
		t.Errorf("total %+v, time %+v", o.Total, o.Time)
	}
	f := OverRuns(c, FinishMetric, 100) // 100 tokens at 2000, 1000, 4000 tok/s: 50ms, 100ms, 25ms
	if f.Speed.Runs != 0 || f.Time != (Spread{Median: float64(50 * ms), Min: float64(25 * ms), Max: float64(100 * ms), Runs: 3}) {
		t.Errorf("--finish-at 100: speed %+v, time to N %+v", f.Speed, f.Time)
	}
	if f.Metric != FinishMetric || o.Metric != VerdictMetric {
		t.Errorf("metrics %q, %q", o.Metric, f.Metric)
	}
}

// A workload's figure is a speed where it is one (the prefill estimate)
// and a time where it is one (tool call, JSON, warm TTFT, conversation:
// the run's rate is 1 ÷ that time), whatever --finish-at says.
func TestOverRunsOfWorkloads(t *testing.T) {
	rates := []float64{2, 4, math.NaN(), 10} // 500ms, 250ms, none, 100ms
	for _, metric := range []string{ToolCallMetric, JSONMetric, WarmMetric, ConversationMetric} {
		o := OverRuns(Contender{Speeds: rates}, metric, 100)
		if o.Speed.Runs != 0 || o.Time != (Spread{Median: float64(250 * ms), Min: float64(100 * ms), Max: float64(500 * ms), Runs: 3}) {
			t.Errorf("%s: speed %+v, time %+v", metric, o.Speed, o.Time)
		}
	}
	p := OverRuns(Contender{Speeds: []float64{1000, 3000}}, PrefillMetric, 100)
	if p.Metric != PrefillMetric || p.Speed != (Spread{Median: 2000, Min: 1000, Max: 3000, Runs: 2}) || p.Time.Runs != 0 {
		t.Errorf("prefill: %+v", p)
	}
}
