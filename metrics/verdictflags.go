package metrics

import (
	"math"
	"strconv"
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/probes"
)

// referee counts the flags on every contender's paired runs (the runs
// where the winner and the runner-up both have a speed: those the verdict
// rests on) and names those on the winner's and runner-up's that could
// explain the margin (explains). Another contender's flags cannot bend
// the margin, but the text names them: a flag the verdict hid would read
// as a provider without one.
func (v *Verdict) referee(ranked []Contender, winner, runnerUp Contender) {
	doubt := map[string]bool{}
	for run := range min(len(winner.Speeds), len(runnerUp.Speeds)) {
		if math.IsNaN(winner.Speeds[run]) || math.IsNaN(runnerUp.Speeds[run]) {
			continue
		}
		for _, c := range ranked {
			if run >= len(c.Flags) {
				continue
			}
			for _, flag := range c.Flags[run].Names() {
				if v.Flagged == nil {
					v.Flagged = map[string]map[string]int{}
				}
				if v.Flagged[c.Name] == nil {
					v.Flagged[c.Name] = map[string]int{}
				}
				v.Flagged[c.Name][flag]++
				if c.Name != winner.Name && c.Name != runnerUp.Name {
					continue
				}
				explained := explains(flag, c.Name == winner.Name, v.Metric)
				if flag == FlagClientSaturated && run < len(c.Load) {
					explained = saturationExplains(c.Load[run], v.Ratio, min(span(winner, run), span(runnerUp, run)))
				}
				doubt[flag] = doubt[flag] || explained
			}
		}
	}
	for _, flag := range FlagOrder {
		if doubt[flag] {
			v.Doubt = append(v.Doubt, flag)
		}
	}
}

// span is c's median first-token-to-end time in run, the time its output
// speed is measured over.
func span(c Contender, run int) time.Duration {
	if run >= len(c.Total) || run >= len(c.TTFT) {
		return 0
	}
	return c.Total[run] - c.TTFT[run]
}

// saturationExplains: a client whose CPU was saturated measured itself, and
// could explain any margin. One that only stamped events late (its wake
// p95 over LateShare of a stream's gap) stamped them that late: at both
// ends of a stream's span that bends its speed by about 2 × p95 ÷ span,
// which explains a ratio no further from 1 than that.
func saturationExplains(load *probes.ClientLoad, ratio float64, span time.Duration) bool {
	if load == nil || load.CPU >= SaturatedCPU || span <= 0 {
		return true
	}
	bend := 2 * load.WakeP95.Seconds() / span.Seconds()
	return ratio-1 <= bend
}

// explains is the rule by which a flag on a paired run could explain the
// margin of a verdict on metric, so the verdict is not confident (README,
// "The referee"). Who answered and a saturated client (saturationExplains,
// when its load is known) bend any figure, whoever they touch. A short
// answer and a token count off its usual bend the output speed only: the
// other figures are times, which a few tokens or another tokenizer leave
// as they are. What happens before the first token (a cached prompt, a
// cold connection, a retry, start skew) bends every figure timed from the
// request, which is all but the output speed (time to N, a tool call's or
// valid JSON's time, warm TTFT, a conversation's time, the prefill
// estimate's TTFTs), and then only in the winner's favour: a cached prompt
// on the winner, a cold connection or a retry on the runner-up, start skew
// on either. An answer sent in one burst has no speed (its run is
// unpaired on output speed), and its first token came with its last: it
// explains a margin timed from the request on the runner-up. A 429 leaves
// its run unpaired and explains nothing.
func explains(flag string, onWinner bool, metric string) bool {
	fromRequest := metric != VerdictMetric
	switch flag {
	case FlagModelSubstituted, FlagClientSaturated:
		return true
	case FlagShortAnswer, FlagCountMismatch:
		return !fromRequest
	case FlagOneBurst: // its first token came with the last: late
		return fromRequest && !onWinner
	case FlagCachedPrompt:
		return fromRequest && onWinner
	case FlagColdConnection, FlagRetried:
		return fromRequest && !onWinner
	case FlagStartSkew:
		return fromRequest
	}
	return false
}

// flagPhrases say what a flag means of a provider's runs, in the verdict:
// of one provider, of several. rate_limited has its own clause.
var flagPhrases = map[string][2]string{
	FlagModelSubstituted: {"answered by another model", "answered by another model"},
	FlagClientSaturated:  {"raced on a saturated client", "raced on a saturated client"},
	FlagCachedPrompt:     {"had cached prompts", "had cached prompts"},
	FlagShortAnswer:      {"gave short answers", "gave short answers"},
	FlagOneBurst:         {"sent whole answers at once", "sent whole answers at once"},
	FlagCountMismatch:    {"counted tokens off its usual", "counted tokens off their usual"},
	FlagStartSkew:        {"started skewed", "started skewed"},
	FlagColdConnection:   {"paid a cold connection", "paid cold connections"},
	FlagRetried:          {"was retried", "were retried"},
}

// raceWide are the flags of a race as a whole, said without names when
// they touched every contender alike.
var raceWide = map[string]string{FlagStartSkew: "skewed start", FlagClientSaturated: "saturated client"}

// FlaggedText says which flags touched the runs the verdict rests on, each
// cause once, naming every provider it touched in rank order: "sim-lpu had
// cached prompts in 3/5 runs"; "sim-lpu, sim-gpu and sim-laptop gave short
// answers in 1/1 runs; sim-wafer in 2/5 runs"; a flag of the whole race
// that touched every contender alike is said as such ("skewed start in
// 1/1 runs"). "" for none. bench shows it beside Text ("Referee: …"), the
// dashboard after its verdict line ("· ⚑ …").
func (v Verdict) FlaggedText() string {
	var causes []string
	for _, flag := range FlagOrder {
		phrase, ok := flagPhrases[flag]
		if !ok {
			continue
		}
		var counts []int              // the distinct run counts, in the order first seen
		byCount := map[int][]string{} // count → the contenders it touched that often
		for _, name := range v.Contenders {
			if n := v.Flagged[name][flag]; n > 0 {
				if byCount[n] == nil {
					counts = append(counts, n)
				}
				byCount[n] = append(byCount[n], name)
			}
		}
		in := func(n int) string { return " in " + strconv.Itoa(n) + "/" + strconv.Itoa(v.Runs) + " runs" }
		if len(counts) == 1 && len(byCount[counts[0]]) == len(v.Contenders) && len(v.Contenders) > 1 && raceWide[flag] != "" {
			causes = append(causes, raceWide[flag]+in(counts[0]))
			continue
		}
		var groups []string
		for k, n := range counts {
			names := byCount[n]
			switch {
			case k > 0: // the phrase is said once, by the first group
				groups = append(groups, format.List(names)+in(n))
			case len(names) == 1:
				groups = append(groups, names[0]+" "+phrase[0]+in(n))
			default:
				groups = append(groups, format.List(names)+" "+phrase[1]+in(n))
			}
		}
		if len(groups) > 0 {
			causes = append(causes, strings.Join(groups, ", "))
		}
	}
	return strings.Join(causes, "; ")
}
