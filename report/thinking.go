package report

import (
	"strconv"

	"tpsrace/metrics"
)

// thinkingColumns are a reasoning race's figures (metrics.ReasoningFigures),
// shown only where some stream thought: time to answer, the thinking and
// the answer phase's speeds, and the thinking a user never saw.
func (b *Bench) thinkingColumns() []column {
	if !b.Reasoned() {
		return nil
	}
	return b.figureColumns(metrics.ReasoningFigures())
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
func thinkingCells(r Stream) []string {
	return []string{strconv.Itoa(r.ThinkingTokens), strconv.Itoa(r.HiddenReasoningTokens), csvOpt(r.ThinkingTPS), csvOpt(r.AnswerTPS)}
}
