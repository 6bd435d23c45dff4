package metrics

import (
	"strconv"

	"tpsrace/workload"
)

// multi-turn: a scripted conversation, one race per turn, each carrying
// the answers before it (ConversationTime).
func init() {
	describe(Description{Workload: workload.MultiTurn, Figures: func(workload.Workload) []Figure {
		return []Figure{{Header: "conversation", Name: "conversation time", Key: "conversation_ms.p50", Gauge: "tpsrace_last_conversation_seconds",
			Unit: Seconds, Decides: true,
			Help: "What the user waited: the turns' median E2E added up, median over the conversations whose every turn completed.",
			Of: func(wr WorkloadRuns) Reading {
				return Reading{Value: wr.Ranked.Conversation.Seconds(), OK: wr.Ranked.HasConversation}
			}}}
	}, StepHeader: "turn", Step: func(s workload.Step, of int) string { return strconv.Itoa(s.Index+1) + "/" + strconv.Itoa(of) },
		Waiting: func(of string) string { return "turn " + of + " raced · the verdict comes with the last turn" }})
}
