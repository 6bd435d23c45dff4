package ui

import (
	"time"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/live"
	"tpsrace/workload"
)

// headline is the figure presenter mode shows of a provider in big digits,
// and its label: under a workload its own figure, the one its verdict
// compares (the time to a complete tool call, to valid JSON, the prefill
// estimate over the sizes raced so far (before two, the race's TTFT at its
// size), the warm TTFT, the conversation's time so far); output tok/s under
// chat. ok is false while it is
// undefined (text is then format.Undefined).
func headline(f live.Figures) (text, label string, ok bool) {
	w := f.Workload
	dist := func(d metrics.Dist[time.Duration], label string) (string, string, bool) {
		if !w.Settled() || !d.Has() {
			return format.Undefined, label, false
		}
		return format.Duration(d.P50), label, true
	}
	switch {
	case w == nil || w.Name == workload.Chat:
		if !f.HasSpeed {
			return format.Undefined, "tok/s", false
		}
		return format.TPS(f.Speed), "tok/s", true
	case w.Name == workload.ToolCall:
		return dist(w.Ranked.ToolComplete, "to a complete tool call")
	case w.Name == workload.JSON:
		return dist(w.Ranked.JSONValidAt, "to valid JSON")
	case w.Name == workload.LongContext:
		// Before two sizes have raced there is no estimate: the race's
		// own TTFT at its size, what the estimate will be drawn from.
		switch {
		case w.Ranked.HasPrefillTPS:
			return format.TPS(w.Ranked.PrefillTPS), "tok/s prefill (estimate)", true
		case f.HasTTFT:
			return format.Duration(f.TTFT), "TTFT at " + format.Count(w.InputTokens) + " tokens", true
		}
		return format.Undefined, "tok/s prefill (from 2 sizes)", false
	case w.Name == workload.CachedPrefix:
		// The cold request's TTFT while it is the race, then the warm one's.
		label := "warm TTFT"
		if w.Step == 1 {
			label = "cold TTFT"
		}
		if w.PrefixCache.Warm.Has() {
			return format.Duration(w.PrefixCache.Warm.P50), label, true
		}
		if !f.HasTTFT {
			return format.Undefined, label, false
		}
		return format.Duration(f.TTFT), label, true
	case w.Name == workload.MultiTurn:
		label := "conversation, turn " + itoa(w.Step) + "/" + itoa(w.Steps)
		d, _, ok := w.Conversation(f)
		if !ok {
			return format.Undefined, label, false
		}
		return format.Duration(d), label, true
	}
	return format.Undefined, "", false
}
