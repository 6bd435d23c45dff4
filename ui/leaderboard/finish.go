package leaderboard

import (
	"strconv"
	"strings"

	"tpsrace/metrics"
	"tpsrace/ui/live"
)

// orderToFinish is Order with --finish-at: metrics.RankFinish (those at N
// by their time to it, then the others by tokens so far, failed ones last).
func orderToFinish(figs []live.Snapshot) []int {
	standings := make([]metrics.Finish, len(figs))
	for i, f := range figs {
		standings[i] = metrics.Finish{Time: f.TimeToN, Reached: f.HasTimeToN, Tokens: f.UserTokens, Failed: f.Status == live.Failed}
	}
	return metrics.RankFinish(standings)
}

// stoppedShort names, for the verdict, the providers that finished their
// answer before --finish-at's N: nobody wins by writing less.
func stoppedShort(names []string, figs []live.Snapshot) string {
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
