package metrics

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/probes"
)

// KneeGain is the knee's threshold: a level whose doubling of users gains
// less than this share of aggregate throughput is past the provider's knee.
const KneeGain = 0.10

// SweepPoint is one provider at one level of a concurrency sweep (--sweep):
// its streams at that concurrency, every race of the level pooled.
//
//   - PerUser: the median per-user output speed (Summary.Speed's P50,
//     SummaryOf's rule: over the completed streams).
//   - Aggregate: AggregateTPS of each race of the level: the median over
//     the races, and the range its uncertainty is read from. With two or
//     more races the range is theirs; with one, the users' own spread (how
//     far the slowest and the fastest per-user speed lie from the median)
//     shrunk by √C, since the aggregate adds C users up and their
//     deviations partly cancel (one user, one race: no range to read).
//   - TTFT, E2E and the SLO's goodput in Summary (queueing shows as TTFT
//     growing with the level; Goodput per second of the level's races).
//   - Flags: the referee's flags touching the provider at this level;
//     ClientBent when one is client_saturated: tpsrace may have bent the
//     figures, so the level is shown, marked, and left out of the knee.
type SweepPoint struct {
	Concurrency int
	Summary     Summary
	Aggregate   Spread
	Flags       Flags
	ClientBent  bool
}

// PerUser is the level's median per-user output speed; ok false when no
// stream completed with a speed.
func (p SweepPoint) PerUser() (tps float64, ok bool) {
	return p.Summary.Speed.P50, p.Summary.Speed.Has()
}

// SweepPointOf is a provider's point at concurrency from its streams of
// each race at that level (races[race][stream]), judged under slo, with
// the referee's flags on them.
func SweepPointOf(concurrency int, races [][]Stream, slo config.SLO, flags Flags) SweepPoint {
	p := SweepPoint{Concurrency: concurrency, Flags: flags}
	_, p.ClientBent = flags[FlagClientSaturated]
	var all []Stream
	var aggregates []float64
	var summaries []Summary
	for _, race := range races {
		r := SummaryOf(race, 0)
		aggregates = append(aggregates, math.NaN())
		if r.HasAggregateTPS {
			aggregates[len(aggregates)-1] = r.AggregateTPS
		}
		summaries = append(summaries, r)
		for _, s := range race {
			all = append(all, s.JudgeSLO(slo))
		}
	}
	p.Summary = SummaryOf(all, 0)
	p.Summary.Goodput = p.Summary.Goodput.withPerSecond(raceTime(summaries))
	p.Aggregate = SpreadOf(aggregates)
	if s := p.Summary.Speed; p.Aggregate.Runs == 1 && s.Has() && s.P50 > 0 {
		shrink := math.Sqrt(float64(s.N))
		p.Aggregate.Min = p.Aggregate.Median * (1 - (s.P50-s.Min)/s.P50/shrink)
		p.Aggregate.Max = p.Aggregate.Median * (1 + (s.Max-s.P50)/s.P50/shrink)
	}
	return p
}

// Knee is where a provider stops gaining: the lowest level C of its sweep
// whose doubling (the aggregate at 2C ÷ the aggregate at C) gains less than
// KneeGain. The aggregate at 2C is read on the measured curve: measured when
// 2C is a level, else interpolated linearly in log2(C) between the levels
// around it; a level whose 2C lies past the sweep's last level has no
// doubling to read and is never the knee. Levels the client may have bent
// (ClientBent) or with no aggregate are left out.
//
// Found false: no level qualified; At is then the last level and Gain the
// doubling gain of the last level that had one (HasGain false when none
// did: a sweep of one level, or of levels too close to read a doubling).
// A knee at the first level means the provider gained nothing from more
// users from the start.
//
// Low and High are the knee within the levels' uncertainty (SweepPoint's
// Aggregate range): Low the knee when each level's aggregate is read at
// its high end and each doubling at its low end (the least gain, the
// earliest knee), High the other way round (0: no knee within the sweep).
// Low == High == At says the spread could not move it.
type Knee struct {
	Found     bool
	At        int
	Gain      float64
	HasGain   bool
	Low, High int
}

// KneeOf the points of one provider, in any order.
func KneeOf(points []SweepPoint) Knee {
	var pts []SweepPoint
	for _, p := range points {
		if p.Aggregate.Runs > 0 && !p.ClientBent {
			pts = append(pts, p)
		}
	}
	slices.SortFunc(pts, func(a, b SweepPoint) int { return cmp.Compare(a.Concurrency, b.Concurrency) })
	median := func(p SweepPoint) float64 { return p.Aggregate.Median }
	low := func(p SweepPoint) float64 { return p.Aggregate.Min }
	high := func(p SweepPoint) float64 { return p.Aggregate.Max }
	var k Knee
	if len(pts) > 0 {
		k.At = pts[len(pts)-1].Concurrency
	}
	k.Found, k.Gain, k.HasGain = kneeAt(pts, median, median, &k.At)
	kneeAt(pts, high, low, &k.Low)
	kneeAt(pts, low, high, &k.High)
	return k
}

// kneeAt finds the knee reading each level's aggregate with at and its
// doubling's with doubled, writing its level to *level (unchanged when none
// is found); gain is the knee's doubling gain, or the last one read.
func kneeAt(pts []SweepPoint, at, doubled func(SweepPoint) float64, level *int) (found bool, gain float64, hasGain bool) {
	for _, p := range pts {
		twice, ok := interpolate(pts, doubled, 2*p.Concurrency)
		if !ok || at(p) <= 0 {
			continue
		}
		gain, hasGain = twice/at(p)-1, true
		if gain < KneeGain {
			*level = p.Concurrency
			return true, gain, true
		}
	}
	return false, gain, hasGain
}

// interpolate reads value at concurrency c on the curve through pts
// (sorted), linear in log2(c) between the levels around it; ok false
// outside the measured levels.
func interpolate(pts []SweepPoint, value func(SweepPoint) float64, c int) (float64, bool) {
	for i := range pts {
		if pts[i].Concurrency == c {
			return value(pts[i]), true
		}
		if i > 0 && pts[i-1].Concurrency < c && c < pts[i].Concurrency {
			lo, hi := math.Log2(float64(pts[i-1].Concurrency)), math.Log2(float64(pts[i].Concurrency))
			t := (math.Log2(float64(c)) - lo) / (hi - lo)
			return value(pts[i-1]) + t*(value(pts[i])-value(pts[i-1])), true
		}
	}
	return 0, false
}

// Curve is one provider's sweep: its points in the order raced and its knee.
type Curve struct {
	Name   string
	Points []SweepPoint
	Knee   Knee
}

// CurveOf names a provider's points and finds their knee.
func CurveOf(name string, points []SweepPoint) Curve {
	return Curve{Name: name, Points: points, Knee: KneeOf(points)}
}

// Headline is the point a verdict quotes: the knee's level when there is
// one, else the unbent level of the highest aggregate; ok false when no
// level had an aggregate.
func (c Curve) Headline() (SweepPoint, bool) {
	var best SweepPoint
	found := false
	for _, p := range c.Points {
		if p.Aggregate.Runs == 0 || p.ClientBent {
			continue
		}
		if c.Knee.Found && p.Concurrency == c.Knee.At {
			return p, true
		}
		if !found || p.Aggregate.Median > best.Aggregate.Median {
			best, found = p, true
		}
	}
	return best, found
}

// bentOnly is whether the curve's only aggregates are at levels the client
// may have bent.
func (c Curve) bentOnly() bool {
	for _, p := range c.Points {
		if p.Aggregate.Runs > 0 && p.ClientBent {
			return true
		}
	}
	return false
}

// Sweep is a concurrency sweep: the levels raced, in order, each
// provider's curve, and, when tpsrace stopped climbing because it was
// itself saturated, why (Stopped, "" otherwise).
type Sweep struct {
	Levels  []int
	Curves  []Curve
	Stopped string
}

// Verdict is the sweep in one sentence, the provider of the highest
// headline aggregate first: "groq holds 1,420 tok/s aggregate at 89 tok/s
// per user at C=16; cerebras saturates at C=8". A knee the levels' spread
// could move says how far ("saturates at C=8 (within the spread: C=4–16)");
// a provider that gained to the last level "still gains at C=64".
func (s Sweep) Verdict() string {
	curves := slices.Clone(s.Curves)
	aggregate := func(c Curve) float64 {
		p, ok := c.Headline()
		if !ok {
			return -1
		}
		return p.Aggregate.Median
	}
	slices.SortStableFunc(curves, func(a, b Curve) int { return cmp.Compare(aggregate(b), aggregate(a)) })
	var parts []string
	for i, c := range curves {
		parts = append(parts, c.sentence(i == 0))
	}
	text := strings.Join(parts, "; ")
	if s.Stopped != "" {
		text += ". " + s.Stopped
	}
	return text
}

// sentence is one provider's part of the verdict; the leader's quotes its figures.
func (c Curve) sentence(leader bool) string {
	p, ok := c.Headline()
	if !ok {
		if c.bentOnly() {
			return c.Name + " was measured only where tpsrace was saturated"
		}
		return c.Name + " has no aggregate figure"
	}
	level := "C=" + strconv.Itoa(p.Concurrency)
	if !leader {
		if !c.Knee.Found {
			return c.Name + " still gains at " + level
		}
		return c.Name + " saturates at " + level + c.Knee.within()
	}
	text := c.Name + " holds " + format.TPS(p.Aggregate.Median) + " tok/s aggregate"
	if u, ok := p.PerUser(); ok {
		text += " at " + format.TPS(u) + " tok/s per user"
	}
	text += " at " + level
	if !c.Knee.Found {
		return text + " and still gains"
	}
	return text + c.Knee.within()
}

// within is " (within the spread: C=4–16)" when the spread moves the
// knee, " (within the spread: C=4 or later)" when it may lie past the sweep.
func (k Knee) within() string {
	switch {
	case k.Low == k.At && k.High == k.At:
		return ""
	case k.High == 0:
		return " (within the spread: C=" + strconv.Itoa(k.Low) + " or later)"
	}
	return " (within the spread: C=" + strconv.Itoa(k.Low) + "–" + strconv.Itoa(k.High) + ")"
}

// ClientSaturatedIn is the evidence that tpsrace itself was saturated in
// one of races, "" when it was not in any: a sweep stops climbing there
// (SweepStopped). The rule is the referee's client_saturated, each stream
// judged against its own gap between events: a level whose streams each
// have 10ms between tokens is not bent by a client 0.3ms late (the least
// gap, Saturation's rule for a timed test, stopped sweeps at C=1 on a box
// merely busy).
func ClientSaturatedIn(races [][][]probes.Result) string {
	for _, race := range races {
		for _, streams := range race {
			for i := range streams {
				if why := saturation(&streams[i], Compute(&streams[i], 0)); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// SweepStopped says why a sweep stopped climbing at level: tpsrace was
// saturated there (evidence), so the levels after it (rest) would have
// measured tpsrace, not the providers.
func SweepStopped(level int, evidence string, rest []int) string {
	skipped := make([]string, len(rest))
	for i, c := range rest {
		skipped[i] = "C=" + strconv.Itoa(c)
	}
	return "tpsrace itself saturated at C=" + strconv.Itoa(level) + " (" + evidence + "): the sweep stopped there, " +
		strings.Join(skipped, ", ") + " not raced"
}
