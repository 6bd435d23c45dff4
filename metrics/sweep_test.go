package metrics

import (
	"testing"
	"time"

	"tpsrace/config"
)

// point is a level with its aggregate known to within ±share.
func point(c int, aggregate, share float64) SweepPoint {
	return SweepPoint{Concurrency: c, Aggregate: Spread{Median: aggregate, Min: aggregate * (1 - share), Max: aggregate * (1 + share), Runs: 3}}
}

func points(share float64, levels []int, aggregates ...float64) []SweepPoint {
	var pts []SweepPoint
	for i, c := range levels {
		pts = append(pts, point(c, aggregates[i], share))
	}
	return pts
}

func TestKneeOf(t *testing.T) {
	for _, c := range []struct {
		name string
		pts  []SweepPoint
		want Knee
	}{
		{"8 slots, doublings", points(0.02, []int{1, 2, 4, 8, 16, 32}, 100, 200, 400, 800, 800, 800),
			Knee{Found: true, At: 8, Gain: 0, HasGain: true, Low: 8, High: 8}},
		// 2C read between levels, linear in log2 C: A(2) = 250, A(8) = 600, A(32) = 800.
		{"quadrupling levels", points(0, []int{1, 4, 16, 64}, 100, 400, 800, 800),
			Knee{Found: true, At: 16, Gain: 0, HasGain: true, Low: 16, High: 16}},
		{"still gaining", points(0, []int{1, 2, 4}, 100, 200, 400),
			Knee{At: 4, Gain: 1, HasGain: true}},
		{"flat from the start", points(0, []int{1, 2, 4}, 100, 105, 106),
			Knee{Found: true, At: 1, Gain: 0.05, HasGain: true, Low: 1, High: 1}},
		{"one level", points(0, []int{4}, 400), Knee{At: 4}},
		{"the spread moves it", points(0.05, []int{1, 2, 4, 8}, 100, 200, 380, 400),
			Knee{Found: true, At: 4, Gain: 400.0/380 - 1, HasGain: true, Low: 4, High: 0}},
		{"none", nil, Knee{}},
	} {
		got := KneeOf(c.pts)
		if got.Found != c.want.Found || got.At != c.want.At || got.Low != c.want.Low || got.High != c.want.High ||
			got.HasGain != c.want.HasGain || !nearly(got.Gain, c.want.Gain) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func nearly(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// A level tpsrace may have bent is not read: its flat aggregate is the
// client's, not the provider's knee.
func TestKneeLeavesBentLevelsOut(t *testing.T) {
	pts := points(0, []int{1, 2, 4, 8}, 100, 200, 400, 400)
	pts[3].ClientBent = true
	if k := KneeOf(pts); k.Found || k.At != 4 {
		t.Errorf("%+v: want no knee, the last level read 4", k)
	}
}

func TestSweepVerdict(t *testing.T) {
	fast := CurveOf("cerebras", points(0.01, []int{1, 2, 4, 8, 16}, 1800, 3600, 7000, 12000, 12100))
	slow := CurveOf("gpu", points(0.01, []int{1, 2, 4, 8, 16}, 100, 200, 400, 800, 1600))
	for i := range fast.Points {
		fast.Points[i].Summary.Speed = Dist[float64]{P50: fast.Points[i].Aggregate.Median / float64(fast.Points[i].Concurrency), N: 1}
	}
	s := Sweep{Levels: []int{1, 2, 4, 8, 16}, Curves: []Curve{slow, fast}}
	if got, want := s.Verdict(), "cerebras holds 12,000 tok/s aggregate at 1,500 tok/s per user at C=8; gpu still gains at C=16"; got != want {
		t.Errorf("verdict\n %q, want\n %q", got, want)
	}
	s.Stopped = "tpsrace saturated at C=16"
	unsure := CurveOf("groq", points(0.05, []int{1, 2, 4, 8}, 100, 200, 380, 400))
	s.Curves = append(s.Curves, unsure)
	bent := CurveOf("busy", points(0, []int{1}, 100))
	bent.Points[0].ClientBent = true
	s.Curves = append(s.Curves, bent, CurveOf("failed", []SweepPoint{{Concurrency: 1}}))
	if got, want := s.Verdict(), "cerebras holds 12,000 tok/s aggregate at 1,500 tok/s per user at C=8; gpu still gains at C=16; "+
		"groq saturates at C=4 (within the spread: C=4 or later); busy was measured only where tpsrace was saturated; failed has no aggregate figure. tpsrace saturated at C=16"; got != want {
		t.Errorf("verdict\n %q, want\n %q", got, want)
	}
}

// One race at a level: its aggregate's range is its users' spread shrunk
// by √C; two races: theirs. Goodput is over the level's streams.
func TestSweepPointOf(t *testing.T) {
	user := func(tps float64) Stream {
		return Stream{Figures: Figures{OutputTPS: tps, HasOutputTPS: true, Completed: true, OutputTokens: 100, E2E: time.Second, TTFT: time.Millisecond, HasTTFT: true}}
	}
	race := []Stream{user(80), user(100), user(100), user(120)}
	p := SweepPointOf(4, [][]Stream{race}, config.SLO{OutputTPS: 90}, Flags{})
	if u, ok := p.PerUser(); !ok || u != 100 {
		t.Errorf("per user %v", u)
	}
	if a := p.Aggregate; a.Median != 400 || !nearly(a.Min, 360) || !nearly(a.Max, 440) || a.Runs != 1 {
		t.Errorf("aggregate %+v, want 400 within 360–440 (±20%% ÷ √4)", a)
	}
	if g := p.Summary.Goodput; !p.Summary.HasGoodput || g.Met != 3 || g.Streams != 4 || !g.HasPerSecond || g.PerSecond != 3 {
		t.Errorf("goodput %+v: want 3 of 4 streams, 3 a second of the 1 s race", g)
	}
	slow := []Stream{user(50), user(50), user(50), user(50)}
	slow[0].E2E = 2 * time.Second
	p = SweepPointOf(4, [][]Stream{race, slow}, config.SLO{}, Flags{FlagClientSaturated: "busy"})
	if a := p.Aggregate; a.Median != 300 || a.Min != 200 || a.Max != 400 || !p.ClientBent || p.Summary.HasGoodput {
		t.Errorf("two races: %+v, bent %v, goodput %v", a, p.ClientBent, p.Summary.HasGoodput)
	}
}
