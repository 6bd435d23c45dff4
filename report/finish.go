package report

import (
	"strconv"
	"strings"

	"tpsrace/format"
)

// finishNote is the table's line on the race to N tokens, in ranking order:
// "Time to 200 tokens (p50): alpha 310ms, bravo 402ms, gamma stopped short (120 tokens)."
func (b *Bench) finishNote() string {
	var parts []string
	for _, p := range b.Ranked() {
		s := p.Summary
		switch {
		case s.TimeToNms.P50 != nil:
			parts = append(parts, p.Name+" "+duration(s.TimeToNms.P50))
		case s.OK == 0:
			parts = append(parts, p.Name+" failed")
		default:
			parts = append(parts, p.Name+" stopped short ("+format.Plural(s.EventTokens, "token")+" per user)")
		}
	}
	return "Time to " + strconv.Itoa(*b.FinishAt) + " tokens (p50, the ranking): " + strings.Join(parts, ", ") + "."
}
