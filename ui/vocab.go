package ui

import (
	"fmt"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/lane"
	"tpsrace/workload"
)

// Term is a label the dashboard can show and what it means, in the words
// the help page (?) and docs/DASHBOARD.md give it. Every label on screen is
// one of vocabulary's (TestEveryLabelIsDefined), so the page that defines
// them and the screen cannot drift apart.
type Term struct {
	Label string // as drawn; N stands for a number
	Means string
}

// vocabulary is every label the dashboard draws, by where it shows,
// defined in place: the race's and the chat figures' here (the numbers in
// them metrics' own constants), each workload's figures as metrics
// describes them for every view (workloadTerms).
func vocabulary() []Term {
	terms := raceTerms()
	return append(terms, workloadTerms(terms)...)
}

// workloadTerms are each workload's figures and step (metrics.Describe:
// the headers every view prints and their help), each header once and
// none that known already defines.
func workloadTerms(known []Term) []Term {
	seen := map[string]bool{}
	for _, t := range known {
		seen[t.Label] = true
	}
	var terms []Term
	add := func(label, means string) {
		if label != "" && !seen[label] {
			seen[label] = true
			terms = append(terms, Term{label, means})
		}
	}
	for _, name := range workload.Names {
		w, _ := workload.Named(name)
		d := metrics.Describe(w)
		if d.Figures == nil {
			continue
		}
		add(d.StepHeader, name+": where the race on screen is in its run")
		for _, f := range metrics.FiguresOf(w, true, 4) {
			add(f.Header, name+": "+f.Help)
		}
	}
	return terms
}

// raceTerms are the labels of a race under any workload, and of chat's.
func raceTerms() []Term {
	return []Term{
		// The header.
		{"SIMULATED · N of N SIMULATED", "providers served by tpsrace's simulator (sim: models): not real measurements; \"2 of 5\" when only some of the race's are"},
		{"racing N · finished in N", "the race's time since the release; its end"},
		{"N providers C=N", "providers racing, and simultaneous users (streams) each; \"next N\" from the next race"},
		{"start skew", "how far apart the providers' requests left the barrier"},
		{"heat N/N", "--heats: the heat racing now, of how many"},
		{"prompt · max N tokens", "the prompt raced and its max_tokens"},
		{"N skipped", "providers left out (no key set, nothing listening): listed on this page"},
		// A lane's figures.
		{"TTFT", "time to first token: release → the first streamed text"},
		{"TTFA", "time to first answer: TTFT + a reasoning model's thinking"},
		{"speed, tok/s", "output tokens per second per user: tokens after the first ÷ first-to-last token time"},
		{"now", "live tok/s: tokens that arrived in the last " + format.Duration(metrics.LiveWindow)},
		{"N tok", "output tokens so far (~: an o200k estimate)"},
		{fmt.Sprintf("%d agent calls ≈", metrics.AgentCalls), fmt.Sprintf("chat: %d chained calls × (TTFT + %d tokens): what an agent waits", metrics.AgentCalls, metrics.AgentCallTokens)},
		{"TTFT p50 · max", "C > 1: the median stream's TTFT · the slowest one's"},
		{"N streams", "C > 1: the provider's streams (simultaneous users) in this race"},
		{"per-user · aggregate", "C > 1: the median stream's tok/s · all the provider's streams together"},
		{"tok/user", "the median stream's output tokens"},
		{"queued", "streams that waited for a server slot (first token after 2× the fastest one's)"},
		{"prefill · decode", "a llama.cpp server's own prompt and generation speeds"},
		{"thought for", "a reasoning model's thinking: its time and tokens"},
		{"┃ finish", "the race track: tokens so far toward the finish line every lane shares"},
		{"scale N · tok/s, log", "the sparkline's top: the tok/s scale every lane shares, the fastest lane's peak (not this lane's speed: its figures are above); log: logarithmic, when speeds span over 10×"},
		{"reading speed", fmt.Sprintf("the dotted line: %.0f words/min ≈ %.1f tok/s; N× reading speed = N times that", metrics.ReadingTPS*metrics.WordsPerToken*60, metrics.ReadingTPS)},
		{"slow · conversational · voice-ready", fmt.Sprintf("the speed badge, what the speed is good for: slow < %d tok/s · conversational ≥ %d · voice-ready ≥ %d", metrics.ConversationalTPS, metrics.ConversationalTPS, metrics.VoiceReadyTPS)},
		{"waiting · thinking · streaming", "the stream's status before its first token, while it reasons, while text arrives"},
		{"silent N", "begun, but nothing has arrived for N (over " + format.Duration(lane.SilentAfter) + "): the provider paused or hung; --stall-timeout ends it"},
		{"✓ 1st · ✗ failed", "finished in that place; failed, and why under it"},
		{"N name ✗ key refused · could not connect · server error · …", "a lane that failed before its first token: one line under the others, what failed, then the provider's own words (zoom 1-9 shows them whole)"},
		{"⚑", "the referee flagged this provider's race (cached prompt, another model, a stall…): zoom (1-9) says why"},
		// The leaderboard.
		{"# · provider · finish", "rank · provider · place among the finished, in rank order"},
		{"words/s", fmt.Sprintf("tok/s in English words (× %.2f)", metrics.WordsPerToken)},
		{"total · tokens", "release to the end of the last stream · output tokens (~: estimated)"},
		{"feel", fmt.Sprintf("how the stream flowed: smooth · bursty · one burst (the answer came at once: no speed) · N stalls (gaps over %s) and their time", format.Duration(metrics.StallGap))},
		{"cost/req", "the price of one request, from the providers file's prices"},
		{"heats tok/s · heats TTFT · heats total", "--heats: the median over the heats ± how far they spread"},
		{"heats call · heats valid · heats prefill · heats warm · heats conv · heats to N", "--heats under a workload (or --finish-at): the verdict's figure (complete call, valid JSON, prefill speed, warm TTFT, conversation time, time to N tokens), median ± spread over the heats"},
		{"finish N tok", "the finish line: --finish-at, else max_tokens, else the longest answer"},
		{"- · …", "no such figure (never a 0: a failed provider's speed) · a figure that waits for the race's end, or words that gave way"},
		// The chart and the verdicts.
		{"tokens so far · steeper is faster", "the chart: each provider's tokens over time"},
		{"time to a complete tool call · time to valid JSON", "the chart of a tool-call or json race: a row per provider, its bar as long as the time"},
		{"┄ wait ━ write", "on that chart: waiting for the first piece (tool-call delta, answer byte) · writing until ✓ valid (✗: never)"},
		{"live tok/s per user", "the chart after v: each provider's live tok/s over time, on the lanes' scale"},
		{"v shows tok/s · v shows tokens", "the key that switches the chart to the other plot"},
		{"▶ A is N× faster than B (a vs b)", "the verdict: the winner against the runner-up, in the race's own figure"},
		{"this race · heat N/N", "--heats: the race on screen · the verdict over the heats so far"},
	}
}
