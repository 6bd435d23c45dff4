package report

import (
	"strconv"

	"tpsrace/format"
	"tpsrace/metrics"
)

// GroupThinking is a group's reasoning figures (metrics.Phases), as
// metrics.SummaryOf takes them: TTFA over the streams with answer text, the
// thinking and answer speeds over the completed streams that defined
// them, the hidden reasoning tokens per user, the median over every stream
// (undefined when none thought); Reasoned counts the streams that thought.
type GroupThinking struct {
	Reasoned                                        int
	TTFAms, ThinkingTPS, AnswerTPS, HiddenReasoning Stats
}

// thinkingOf is a group's reasoning figures from its summary
// (metrics.Summary's TTFA and RunPhases); the hidden tokens only where
// some stream thought (0 elsewhere would read as measured).
func thinkingOf(all metrics.Summary) GroupThinking {
	g := GroupThinking{Reasoned: all.Reasoned, TTFAms: durationStats(all.TTFA), ThinkingTPS: speedStats(all.ThinkingTPS), AnswerTPS: speedStats(all.AnswerTPS)}
	if all.Reasoned > 0 {
		g.HiddenReasoning = Stats{P50: ptr(float64(all.HiddenReasoningTokens))}
	}
	return g
}

var thinkingHeader = []string{"reasoned", "TTFA p50", "think tok/s p50", "answer tok/s p50", "hidden p50"}

// thinkingRows are the Reasoning table of groups (header first, provider
// and model before thinkingHeader); nil when no stream of theirs thought.
func thinkingRows(groups []Group) [][]string {
	rows := [][]string{append([]string{"provider", "model"}, thinkingHeader...)}
	reasoned := false
	for _, g := range groups {
		t := g.Thinking
		reasoned = reasoned || t.Reasoned > 0
		hidden := format.Undefined
		if t.HiddenReasoning.P50 != nil {
			hidden = format.Tokens(*t.HiddenReasoning.P50)
		}
		rows = append(rows, []string{g.Provider, g.Model, strconv.Itoa(t.Reasoned), duration(t.TTFAms.P50),
			speed(t.ThinkingTPS.P50), speed(t.AnswerTPS.P50), hidden})
	}
	if !reasoned {
		return nil
	}
	return rows
}

// thinkingCSV are the overview CSV's reasoning columns: their header, and a group's cells.
var thinkingCSVHeader = []string{"reasoned", "ttfa_ms_p50", "thinking_tps_p50", "answer_tps_p50", "hidden_reasoning_tokens_p50"}

func (t GroupThinking) csvCells() []string {
	return []string{strconv.Itoa(t.Reasoned), csvNum(t.TTFAms.P50), csvNum(t.ThinkingTPS.P50), csvNum(t.AnswerTPS.P50), csvNum(t.HiddenReasoning.P50)}
}

// splitHeader is rows' header and the rest (none of either without rows).
func splitHeader(rows [][]string) ([]string, [][]string) {
	if len(rows) == 0 {
		return nil, nil
	}
	return rows[0], rows[1:]
}
