package report

import (
	"strconv"
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
)

// finishRun fills r's time to n tokens (metrics.TimeToTokens) when n > 0.
func finishRun(r *Run, res *probes.Result, n int) {
	if n <= 0 {
		return
	}
	if at, ok := metrics.TimeToTokens(res.Events, n); ok {
		r.TimeToNms = ptr(ms(at))
	} else {
		r.StoppedShort = true
	}
}

func finishAt(b *Bench) int {
	if b.FinishAt == nil {
		return 0
	}
	return *b.FinishAt
}

// standing is p's place in the race to N tokens.
func standing(p Provider) metrics.Finish {
	f := metrics.Finish{}
	if t := p.Summary.TimeToNms.P50; t != nil {
		f.Time, f.Reached = time.Duration(*t*float64(time.Millisecond)), true
	}
	for _, r := range p.Runs {
		f.Tokens = max(f.Tokens, r.O200kTokens)
	}
	return f
}

// finishOrder is RankedIndexes under --finish-at: by metrics.RankFinish.
func (b *Bench) finishOrder() []int {
	standings := make([]metrics.Finish, len(b.Providers))
	for i, p := range b.Providers {
		standings[i] = standing(p)
	}
	return metrics.RankFinish(standings)
}

// finishNote is the table's line on the race to N tokens, in ranking order:
// "Time to 200 tokens (p50): alpha 310ms, bravo 402ms, gamma stopped short (120 tokens)."
func (b *Bench) finishNote() string {
	var parts []string
	for _, p := range b.Ranked() {
		f := standing(p)
		if f.Reached {
			parts = append(parts, p.Name+" "+format.Duration(f.Time))
		} else {
			parts = append(parts, p.Name+" stopped short ("+strconv.Itoa(f.Tokens)+" tokens)")
		}
	}
	return "Time to " + strconv.Itoa(*b.FinishAt) + " tokens (p50, the ranking): " + strings.Join(parts, ", ") + "."
}
