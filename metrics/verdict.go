package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/probes"
)

// The verdict's rules, in one place (README: "The verdict").
const (
	// VerdictMetric names what the verdict compares: per-user output speed,
	// or with --finish-at N the time to N tokens (FinishMetric).
	VerdictMetric = "output_tps"
	FinishMetric  = "time_to_n_tokens"
	// The workloads' own figures: the time to a complete, valid tool call
	// (tool-call) and the prefill speed estimate (long-context).
	ToolCallMetric = "tool_call_complete"
	PrefillMetric  = "prefill_tps"
	WarmMetric     = "warm_ttft"  // cached-prefix: the warm requests' TTFT
	JSONMetric     = "json_valid" // json: the time to a valid JSON answer
	// ConversationMetric: multi-turn's time for the whole conversation.
	ConversationMetric = "conversation"
	// AnswerMetric: time to answer (TTFA), in a race of reasoning models (ByAnswer).
	AnswerMetric = "ttfa"
	// MinRunsForCI: fewer paired runs give no confidence interval.
	MinRunsForCI = 3
	// LevelWithin: in one race, two providers whose figures lie within 1%
	// of each other are level: the verdict names neither faster (one race
	// has no interval, and "1.00× faster" says nothing).
	LevelWithin = 0.01
	// bootstrapResamples and bootstrapSeed make the interval reproducible:
	// the same runs (a replay of them included) always give the same one.
	bootstrapResamples = 2000
	bootstrapSeed      = 2026
	// ColdFactor: a first run whose TTFT is more than this many times the
	// median TTFT of the later runs (at least two of them) was cold.
	ColdFactor = 3
)

// Contender is one provider's runs, for the verdict.
type Contender struct {
	Name   string
	Metric string // Summary.Metric of its runs; "" reads as VerdictMetric (or FinishMetric with --finish-at)
	// Speeds: per run, Summary.Rate: the provider's median output speed, or
	// with --finish-at N, N ÷ its median time to N tokens (so that bigger
	// is better either way); NaN where the run has none.
	Speeds []float64
	// TTFT: per run, the median TTFT of its streams; 0 where none had text.
	TTFT []time.Duration
	// RateLimited: per run, whether any stream of it was answered 429.
	RateLimited []bool
	// Total: per run, the median end-to-end time of its completed streams;
	// 0 where none completed. The verdict does not use it; OverRuns does.
	Total []time.Duration
	// Flags: per run, the referee's flags touching it (Referee.RunFlags);
	// nil when unknown (the dashboard's one race). Load: per run, tpsrace's
	// own load during the race (nil: not measured).
	Flags []Flags
	Load  []*probes.ClientLoad
}

// Verdict says who is faster over several runs, and how sure that is.
type Verdict struct {
	Winner   string // "" when no provider has a speed
	RunnerUp string // "" with fewer than two
	Metric   string
	FinishAt int // N of --finish-at; 0: the verdict is on output speed
	// Ratio: the winner's median speed over the runner-up's, across the
	// runs where both have one (paired runs).
	Ratio float64
	// CI95: the 95% percentile interval of Ratio from a seeded bootstrap
	// that resamples the paired runs; HasCI false below MinRunsForCI runs.
	CI95  [2]float64
	HasCI bool
	Wins  int // paired runs in which the winner was faster
	Runs  int // paired runs
	// Confident: there is an interval, it lies wholly above 1, no flag
	// could explain the margin (Doubt) and the bench was not interrupted
	// (Stopped).
	Confident bool
	// WinnerSpeed and RunnerUpSpeed are the medians the ratio divides.
	WinnerSpeed, RunnerUpSpeed float64
	// Cold names providers whose first run was cold (see ColdFactor);
	// RateLimited, per provider, the runs answered 429. Neither is averaged
	// away silently: the text says so.
	Cold        []string
	RateLimited map[string][]int
	// Flagged: per flagged contender, per flag, how many of the paired runs
	// (those the verdict rests on) it touched; Contenders: every
	// contender's name, best first, the order FlaggedText names them in.
	// Doubt: the flags on the winner's and runner-up's runs that could
	// explain the margin (explains), which keep it from Confident.
	Flagged    map[string]map[string]int
	Contenders []string
	Doubt      []string
	// Stopped: where the bench was interrupted (Interrupt); nil for one
	// that ran its course.
	Stopped *Stop
}

// ContenderOf is a provider's runs as the verdict takes them (Summary.Rate,
// the median TTFT and E2E of each run).
func ContenderOf(name string, runs []Summary) Contender {
	c := Contender{Name: name}
	for _, r := range runs {
		c.Metric = r.Metric()
		c.Speeds = append(c.Speeds, r.Rate())
		c.TTFT = append(c.TTFT, r.TTFT.P50)
		c.RateLimited = append(c.RateLimited, r.RateLimited)
		c.Total = append(c.Total, r.E2E.P50)
	}
	return c
}

// Decide gives the verdict over contenders ranked best first (by the
// caller's ranking: metrics.Order, benchdoc's Ranked, the dashboard's leaderboard order): the
// winner is the first with a speed, the runner-up the next. finishAt is
// --finish-at's N (0 for none).
func Decide(ranked []Contender, finishAt int) Verdict {
	v := Verdict{Metric: VerdictMetric, FinishAt: finishAt}
	if finishAt > 0 {
		v.Metric = FinishMetric
	}
	if len(ranked) > 0 && workloadMetric(ranked[0].Metric) {
		v.Metric = ranked[0].Metric
	}
	var top []Contender
	for _, c := range ranked {
		v.Contenders = append(v.Contenders, c.Name)
		if _, ok := Median(c.Speeds); ok && len(top) < 2 {
			top = append(top, c)
		}
		if isCold(c.TTFT) {
			v.Cold = append(v.Cold, c.Name)
		}
		for run, limited := range c.RateLimited {
			if limited {
				if v.RateLimited == nil {
					v.RateLimited = map[string][]int{}
				}
				v.RateLimited[c.Name] = append(v.RateLimited[c.Name], run)
			}
		}
	}
	if len(top) == 0 {
		return v
	}
	v.Winner = top[0].Name
	v.WinnerSpeed, _ = Median(top[0].Speeds)
	if len(top) < 2 {
		return v
	}
	v.RunnerUp = top[1].Name
	var w, u []float64
	for run := range min(len(top[0].Speeds), len(top[1].Speeds)) {
		a, b := top[0].Speeds[run], top[1].Speeds[run]
		if math.IsNaN(a) || math.IsNaN(b) {
			continue
		}
		w, u = append(w, a), append(u, b)
		if a > b {
			v.Wins++
		}
	}
	v.Runs = len(w)
	if v.Runs == 0 {
		return v
	}
	v.WinnerSpeed, _ = Median(w)
	v.RunnerUpSpeed, _ = Median(u)
	v.Ratio = v.WinnerSpeed / v.RunnerUpSpeed
	v.referee(ranked, top[0], top[1])
	if v.Runs >= MinRunsForCI {
		v.CI95, v.HasCI = bootstrapRatio(w, u), true
		v.Confident = v.CI95[0] > 1 && len(v.Doubt) == 0
	}
	return v
}

// bootstrapRatio resamples the paired runs with replacement and returns the
// 2.5th and 97.5th percentiles of the ratio of medians.
func bootstrapRatio(w, u []float64) [2]float64 {
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(w))))
	ratios := make([]float64, bootstrapResamples)
	sw, su := make([]float64, len(w)), make([]float64, len(u))
	for i := range ratios {
		for k := range sw {
			j := rng.IntN(len(w))
			sw[k], su[k] = w[j], u[j]
		}
		a, _ := Median(sw)
		b, _ := Median(su)
		ratios[i] = a / b
	}
	slices.Sort(ratios)
	return [2]float64{Percentile(ratios, 2.5), Percentile(ratios, 97.5)}
}

// isCold: the first run's TTFT is over ColdFactor times the median of at
// least two later runs.
func isCold(ttft []time.Duration) bool {
	if len(ttft) < 3 || ttft[0] <= 0 {
		return false
	}
	later := make([]float64, 0, len(ttft)-1)
	for _, t := range ttft[1:] {
		if t > 0 {
			later = append(later, float64(t))
		}
	}
	m, ok := Median(later)
	return ok && len(later) >= 2 && float64(ttft[0]) > ColdFactor*m
}

// Text is the verdict in one line, the same in the dashboard, the bench
// table and Markdown, and the JSON:
//
//	alpha is 3.1× faster than bravo (1,893 vs 610 tok/s)                            one run
//	alpha is faster than bravo in 5/5 runs; output speed ratio 3.1× (95% CI 2.9–3.3, bootstrap)
//	too close to call: alpha vs bravo output speed ratio 1.02× (95% CI 0.97–1.08, bootstrap); alpha faster in 3/5 runs
//	interrupted after 3/20 runs: alpha is faster than bravo in 3/3 runs; …      a bench stopped early (Interrupt)
func (v Verdict) Text() string {
	var s string
	words, workload := workloadVerdicts[v.Metric]
	switch {
	case workload && v.Winner == "":
		s = words.none
	case v.Winner == "":
		s = "no provider completed a stream"
	case workload && (v.RunnerUp == "" || v.Runs == 0):
		s = fmt.Sprintf(words.alone, v.Winner, words.value(v.WinnerSpeed))
	case v.RunnerUp == "" || v.Runs == 0:
		s = v.Winner + " streamed at " + format.TPS(v.WinnerSpeed) + " tok/s"
	case v.Runs == 1:
		s = v.oneRace()
	case !v.HasCI:
		s = v.Winner + " is faster than " + v.RunnerUp + " in " + v.wins() + " runs; " + v.label() + " ratio " + ratio(v.Ratio) +
			" (" + strconv.Itoa(v.Runs) + " runs: too few for a confidence interval)"
	case v.CI95[0] > 1:
		s = v.Winner + " is faster than " + v.RunnerUp + " in " + v.wins() + " runs; " + v.label() + " ratio " + ratio(v.Ratio) + " " + v.ci()
		if len(v.Doubt) > 0 { // the interval is clear of 1, but a flag could explain the margin
			s += "; not confident: " + strings.Join(v.Doubt, ", ") + " could explain the margin"
		}
	default:
		s = "too close to call: " + v.Winner + " vs " + v.RunnerUp + " " + v.label() + " ratio " + ratio(v.Ratio) + " " + v.ci() +
			"; " + v.Winner + " faster in " + v.wins() + " runs"
	}
	if v.Stopped != nil {
		s = v.Stopped.String() + ": " + s
	}
	if len(v.Cold) > 0 {
		s += "; cold first run: " + strings.Join(v.Cold, ", ")
	}
	var limited []string
	for name, runs := range v.RateLimited {
		limited = append(limited, name+" in "+format.Plural(len(runs), "run"))
	}
	if len(limited) > 0 {
		slices.Sort(limited)
		s += "; rate-limited (429): " + strings.Join(limited, ", ")
	}
	return s
}

// oneRace is the verdict of one race: "W is 1.6× faster than U (…)", or
// "W and U are level (…)" within LevelWithin.
func (v Verdict) oneRace() string {
	than, pair := "", format.TPS(v.WinnerSpeed)+" vs "+format.TPS(v.RunnerUpSpeed)+" tok/s"
	if words, ok := workloadVerdicts[v.Metric]; ok {
		than, pair = words.than, words.pair(v.WinnerSpeed, v.RunnerUpSpeed)
	} else if v.FinishAt > 0 {
		at := func(rate float64) string {
			return format.Duration(time.Duration(float64(v.FinishAt) / rate * float64(time.Second)))
		}
		than, pair = " to "+format.Plural(v.FinishAt, "token"), at(v.WinnerSpeed)+" vs "+at(v.RunnerUpSpeed)
	}
	if math.Abs(v.Ratio-1) < LevelWithin {
		return v.Winner + " and " + v.RunnerUp + " are level" + than + " (" + pair + "; within 1%, one race cannot separate them)"
	}
	return v.Winner + " is " + ratio(v.Ratio) + " faster than " + v.RunnerUp + than + " (" + pair + ")"
}

// callTime is a rate (1 ÷ a time: to a complete call, to a warm first token) as that time.
// workloadVerdicts say a workload's verdict of one run: with no winner,
// with no one to compare, and after "W is R× faster than U" the figure and
// the two values. Over several runs the verdict reads as any other.
var workloadVerdicts = map[string]struct {
	none, alone, than string
	value             func(rate float64) string
	pair              func(winner, runnerUp float64) string
}{
	ToolCallMetric:     {"no provider made a valid tool call", "%s completed a valid tool call in %s", " to a complete tool call", callTime, callTimes},
	JSONMetric:         {"no provider answered valid JSON", "%s answered valid JSON in %s", " to valid JSON", callTime, callTimes},
	WarmMetric:         {"no warm request got a token", "%s's warm TTFT is %s", " to a warm first token", callTime, callTimes},
	ConversationMetric: {"no provider finished the conversation", "%s finished the conversation in %s", " over the conversation", callTime, callTimes},
	AnswerMetric:       {"no provider answered", "%s began its answer in %s", " to the answer", callTime, callTimes},
	PrefillMetric: {"no prefill estimate: TTFT did not grow with the input", "%s prefills at ≈ %s tok/s", " at prefill", format.TPS,
		func(w, r float64) string { return "≈ " + format.TPS(w) + " vs " + format.TPS(r) + " tok/s" }},
}

func callTimes(winner, runnerUp float64) string {
	return callTime(winner) + " vs " + callTime(runnerUp)
}

func callTime(rate float64) string {
	return format.Duration(time.Duration(float64(time.Second) / rate))
}

// label names the compared figure in the text.
func (v Verdict) label() string {
	switch v.Metric {
	case ToolCallMetric:
		return "time to a complete tool call"
	case PrefillMetric:
		return "prefill speed"
	case WarmMetric:
		return "warm TTFT"
	case JSONMetric:
		return "time to valid JSON"
	case ConversationMetric:
		return "conversation time"
	case AnswerMetric:
		return "time to answer"
	}
	if v.FinishAt > 0 {
		return "time to " + strconv.Itoa(v.FinishAt) + " tokens"
	}
	return "output speed"
}

func (v Verdict) wins() string { return strconv.Itoa(v.Wins) + "/" + strconv.Itoa(v.Runs) }

func (v Verdict) ci() string {
	return "(95% CI " + strings.TrimSuffix(ratio(v.CI95[0]), "×") + "–" + strings.TrimSuffix(ratio(v.CI95[1]), "×") + ", bootstrap)"
}

// ratio shows two decimals below 2×, where close calls live, else format.Times.
func ratio(r float64) string {
	if r < 2 {
		return strconv.FormatFloat(r, 'f', 2, 64) + "×"
	}
	return format.Times(r)
}
