package report

import (
	"strconv"

	"tpsrace/format"
)

// thinkingColumns are a reasoning race's figures (metrics.Phases), shown
// only where some stream thought: time to answer, the thinking and the
// answer phase's speeds, and the thinking a user never saw.
func (b *Bench) thinkingColumns() []column {
	if !b.Reasoned() {
		return nil
	}
	return []column{
		{"TTFA p50", true, func(_ int, p Provider) string { return duration(p.Summary.TTFAms.P50) }},
		{"think tok/s", true, func(_ int, p Provider) string { return speed(p.Summary.ThinkingTPS.P50) }},
		{"answer tok/s", true, func(_ int, p Provider) string { return speed(p.Summary.AnswerTPS.P50) }},
		{"hidden", true, func(_ int, p Provider) string {
			if p.Summary.Reasoned == 0 {
				return format.Undefined
			}
			return format.Count(p.Summary.HiddenReasoningTokens)
		}},
	}
}

// thinkingNote says how a reasoning race's speeds read ("" without one).
func (b *Bench) thinkingNote() []string {
	if !b.Reasoned() {
		return nil
	}
	return []string{"Reasoning: tok/s is the streamed tokens over the streamed window, hidden reasoning (tokens a provider " +
		"reports but never streamed; per user) left out; think tok/s is the thinking phase's (release, or the first reasoning, " +
		"to the first answer), answer tok/s the answer's; TTFA is the time to the first answer token."}
}

// thinkingCells are a stream's CSV columns of its phases: blank where undefined.
func thinkingCells(r Run) []string {
	return []string{strconv.Itoa(r.ThinkingTokens), strconv.Itoa(r.HiddenReasoningTokens), csvOpt(r.ThinkingTPS), csvOpt(r.AnswerTPS)}
}
