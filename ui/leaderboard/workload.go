package leaderboard

import (
	"strconv"
	"time"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/ui/live"
	"tpsrace/workload"
)

// workload is the workload's run the race belongs to (live.WorkloadRun,
// the same for every provider but its figures); nil under chat or before
// the session has one.
func (m *Model) workload() *live.WorkloadRun {
	for _, f := range m.figures {
		if w := f.Workload; w != nil && w.Name != workload.Chat {
			return w
		}
	}
	return nil
}

// workloadColumns are the workload's own figures, in the place of TTFT and
// tok/s (nil under chat): each one the run's figure once the race on screen
// has finished (live.WorkloadRun, bench's figures of the same races), the
// race's own live figure before where there is one, "…" where the figure
// waits for the race's end, "-" where it is undefined. The first with
// priority 0 is what the verdict compares.
func (m *Model) workloadColumns(dash string) []column {
	w := m.workload()
	if w == nil {
		return nil
	}
	s := m.styles
	pending := s.Muted.Render("…")
	// run is the cell of a figure of the run: pending until the race on
	// screen is among its finished races.
	run := func(show func(w *live.WorkloadRun) (string, bool)) func(r row) string {
		return func(r row) string {
			w := r.f.Workload
			switch {
			case w == nil:
				return dash
			case !w.Settled():
				return pending
			}
			if text, ok := show(w); ok {
				return text
			}
			return dash
		}
	}
	dist := func(d metrics.Dist[time.Duration]) (string, bool) { return format.Duration(d.P50), d.Has() }
	// now is a live figure of the race on screen, muted while its streams run.
	now := func(r row, d time.Duration, ok bool) string {
		switch {
		case !ok:
			return dash
		case !r.f.Settled:
			return s.Muted.Render(format.Duration(d))
		}
		return format.Duration(d)
	}
	ttft := column{header: "TTFT", width: 6, right: true, priority: 0, cell: func(r row) string { return now(r, r.f.TTFT, r.f.HasTTFT) }}
	valid := func(valid, streams func(metrics.Run) int) column {
		return column{header: "valid", width: 5, right: true, priority: 1, cell: run(func(w *live.WorkloadRun) (string, bool) {
			v, n := valid(w.Ranked), streams(w.Ranked)
			switch {
			case n == 1 && v == 1:
				return "✓", true
			case n == 1:
				return s.Failed.Render("✗"), true
			}
			return strconv.Itoa(v) + "/" + strconv.Itoa(n), n > 0
		})}
	}
	figure := func(text string, ok bool) (string, bool) { return s.Figure.Render(text), ok }

	switch w.Name {
	case workload.ToolCall:
		return []column{
			{header: "1st call", width: 8, right: true, priority: 1, cell: run(func(w *live.WorkloadRun) (string, bool) { return dist(w.Ranked.ToolFirst) })},
			{header: "complete", width: 8, right: true, priority: 0, cell: run(func(w *live.WorkloadRun) (string, bool) { return figure(dist(w.Ranked.ToolComplete)) })},
			{header: "args tok/s", width: 10, right: true, priority: 2, cell: run(func(w *live.WorkloadRun) (string, bool) {
				return format.TPS(w.Ranked.ArgsTPS.P50), w.Ranked.ArgsTPS.Has()
			})},
			valid(func(r metrics.Run) int { return r.ToolValid }, func(r metrics.Run) int { return r.ToolStreams }),
		}
	case workload.JSON:
		return []column{
			{header: "1st byte", width: 8, right: true, priority: 1, cell: func(r row) string { return now(r, r.f.TTFA, r.f.HasTTFA) }},
			{header: "valid at", width: 8, right: true, priority: 0, cell: run(func(w *live.WorkloadRun) (string, bool) { return figure(dist(w.Ranked.JSONValidAt)) })},
			valid(func(r metrics.Run) int { return r.JSONValid }, func(r metrics.Run) int { return r.JSONStreams }),
		}
	case workload.LongContext:
		return []column{
			{header: "input", width: 6, right: true, priority: 1, cell: func(r row) string { return format.Count(w.InputTokens) }},
			ttft,
			// The estimate over the sizes raced so far; without one, why
			// (metrics.NoPrefill: "- 1 size", "- flat", "- noisy").
			{header: "prefill tok/s", width: 13, right: true, priority: 0, cell: func(r row) string {
				w := r.f.Workload
				switch {
				case w != nil && w.Ranked.HasPrefillTPS:
					return s.Figure.Render("≈ " + format.TPS(w.Ranked.PrefillTPS))
				case w != nil && w.Ranked.NoPrefill != "":
					return s.Muted.Render(format.Undefined + " " + string(w.Ranked.NoPrefill))
				}
				return dash
			}},
		}
	case workload.CachedPrefix:
		// cold and warm are the run's once raced, the race's own while it runs.
		side := func(step int, pick func(metrics.PrefixCache) metrics.Dist[time.Duration]) func(r row) string {
			return func(r row) string {
				w := r.f.Workload
				switch {
				case w != nil && pick(w.PrefixCache).Has():
					return format.Duration(pick(w.PrefixCache).P50)
				case w != nil && w.Step == step && !w.Settled():
					return now(r, r.f.TTFT, r.f.HasTTFT)
				}
				return dash
			}
		}
		return []column{
			{header: "cold", width: 6, right: true, priority: 1, cell: side(1, func(c metrics.PrefixCache) metrics.Dist[time.Duration] { return c.Cold })},
			{header: "warm", width: 6, right: true, priority: 0, cell: side(2, func(c metrics.PrefixCache) metrics.Dist[time.Duration] { return c.Warm })},
			{header: "saving", width: 6, right: true, priority: 1, cell: func(r row) string {
				if w := r.f.Workload; w != nil && w.PrefixCache.HasSaving {
					return format.Percent(w.PrefixCache.Saving)
				}
				return dash
			}},
			{header: "cached", width: 6, right: true, priority: 2, cell: func(r row) string {
				if w := r.f.Workload; w != nil && w.PrefixCache.Cached.Has() {
					return format.Tokens(w.PrefixCache.Cached.P50)
				}
				return dash
			}},
		}
	case workload.MultiTurn:
		return []column{
			{header: "turn", width: 4, right: true, priority: 1, cell: func(r row) string {
				return strconv.Itoa(w.Step) + "/" + strconv.Itoa(w.Steps)
			}},
			ttft,
			{header: "conversation", width: 12, right: true, priority: 0, cell: conversation(s, dash)},
		}
	}
	return nil
}

// conversation is a multi-turn row's time so far
// (live.WorkloadRun.Conversation), muted until the turn on screen has
// finished; "-" once a turn has failed.
func conversation(s Styles, dash string) func(r row) string {
	return func(r row) string {
		w := r.f.Workload
		if w == nil {
			return dash
		}
		switch d, final, ok := w.Conversation(r.f); {
		case !ok:
			return dash
		case final:
			return s.Figure.Render(format.Duration(d))
		default:
			return s.Muted.Render(format.Duration(d))
		}
	}
}

// isWorkload is whether f is of a workload's race (not chat).
func isWorkload(f live.Figures) bool { return f.Workload != nil && f.Workload.Name != workload.Chat }

// rankedRuns are the providers' runs the verdict ranks
// (live.WorkloadRun.Ranked), once a workload's run has ended: its last
// race has finished (ok false before, and under chat).
func rankedRuns(figs []live.Figures) ([]metrics.Run, bool) {
	runs := make([]metrics.Run, len(figs))
	for i, f := range figs {
		if !isWorkload(f) || !f.Workload.Settled() || f.Workload.Step < f.Workload.Steps {
			return nil, false
		}
		runs[i] = f.Workload.Ranked
	}
	return runs, len(figs) > 0
}

// nextStep is what the verdict line says once a race that is not its
// workload run's last has finished: the verdict waits for the run's last
// race ("" when the race is a run's last, or under chat).
func nextStep(figs []live.Figures) string {
	if len(figs) == 0 || !isWorkload(figs[0]) {
		return ""
	}
	w := figs[0].Workload
	if !w.Settled() || w.Step >= w.Steps {
		return ""
	}
	of := strconv.Itoa(w.Step) + "/" + strconv.Itoa(w.Steps)
	switch w.Name {
	case workload.LongContext:
		return "size " + of + " raced · the prefill verdict comes with the last size"
	case workload.CachedPrefix:
		return "cold request raced · the warm request decides"
	case workload.MultiTurn:
		return "turn " + of + " raced · the verdict comes with the last turn"
	}
	return "race " + of + " of the run · the verdict comes with its last"
}

// soFar is what the board ranks f by before its workload's run has ended,
// as a rate (bigger is better): a conversation's time so far
// (live.WorkloadRun.Conversation), the prefill estimate over the sizes
// raced so far, a tool call's or JSON answer's figure once judged
// (Figures.Rate); ok false without one (then TTFT ranks).
func soFar(f live.Figures) (rate float64, ok bool) {
	w := f.Workload
	switch {
	case w != nil && w.Name == workload.MultiTurn:
		if d, _, ok := w.Conversation(f); ok && d > 0 {
			return 1 / d.Seconds(), true
		}
		return 0, false
	case w != nil && w.Name == workload.LongContext:
		return w.Ranked.PrefillTPS, w.Ranked.HasPrefillTPS
	}
	return f.Rate, f.HasRate
}
