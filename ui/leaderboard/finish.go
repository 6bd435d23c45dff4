package leaderboard

import (
	"strconv"
	"strings"

	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// orderToFinish is Order with --finish-at: metrics.RankFinish (those at N
// by their time to it, then the others by tokens so far), failed ones last.
func orderToFinish(figs []live.Figures) []int {
	var racing, failed []int
	var standings []metrics.Finish
	for i, f := range figs {
		if f.Status == live.Failed {
			failed = append(failed, i)
			continue
		}
		racing = append(racing, i)
		standings = append(standings, metrics.Finish{Time: f.TimeToN, Reached: f.HasTimeToN, Tokens: f.UserTokens})
	}
	var order []int
	for _, k := range metrics.RankFinish(standings) {
		order = append(order, racing[k])
	}
	return append(order, failed...)
}

// stoppedShort names, for the verdict, the providers that finished their
// answer before --finish-at's N: nobody wins by writing less.
func stoppedShort(names []string, figs []live.Figures) string {
	var short []string
	for i, f := range figs {
		if f.StoppedShort() {
			short = append(short, names[i])
		}
	}
	if len(short) == 0 {
		return ""
	}
	return " · stopped short of " + strconv.Itoa(figs[0].FinishAt) + " tokens: " + strings.Join(short, ", ")
}
