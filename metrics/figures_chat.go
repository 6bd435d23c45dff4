package metrics

import "tpsrace/workload"

// chat is the plain race: its figures are every workload's own (TTFT,
// output speed, E2E, aggregate, tokens, cost: Run), with nothing to add
// but the agent loop its lanes extrapolate them to (AgentLoop).
func init() {
	describe(Description{Workload: workload.Chat, Figures: func(workload.Workload) []Figure { return nil }, AgentLoop: true})
}
