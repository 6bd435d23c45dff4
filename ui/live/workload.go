package live

import (
	"math"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/workload"
)

// SetWorkload says the race is of workload w, whose rules the referee applies to
// each stream as it ends (workload.Workload.ShortAnswerTokens).
func (p *Lane) SetWorkload(w workload.Workload) { p.workload = w }

// OfferTool says the race offers fn (the tool-call workload): the lane's
// text then shows each call as it fills in, and once the stream ends
// whether it was valid.
func (p *Lane) OfferTool(fn *workload.Schema) { p.tool = fn }

// AskJSON says the race asks for JSON following schema (the json
// workload): once a stream ends, its lane's text says whether the answer
// was valid JSON (✓ valid JSON, or ✗ and why).
func (p *Lane) AskJSON(schema *workload.Schema) { p.answerSchema = schema }

// writeWorkload adds to the followed stream's answer text what the
// workload shows: the calls of a tool-call race, the verdict on a json
// race's answer.
func (t *followedText) writeWorkload(s *Stream, p *Lane) {
	if p.tool != nil {
		t.writeCalls(s)
	}
	if p.answerSchema != nil && s.Result != nil && s.Result.OK() && !t.settled {
		t.settled = true
		if a := s.jsonAnswer; a.Valid {
			t.answer.WriteString("\n✓ valid JSON")
		} else {
			t.answer.WriteString("\n✗ " + a.Problem)
		}
	}
}

// writeCalls adds the stream's new tool-call deltas to the answer text as
// calls, the function's name then its arguments indented as they arrive
// ("⚙ get_weather", "{", "  \"city\": \"Par…"), always appending, so the
// lane wraps only what is new; once the stream has ended, whether the call
// was valid (metrics.ToolCallOf): ✓ valid, or ✗ and why.
func (t *followedText) writeCalls(s *Stream) {
	for _, d := range s.tools[t.tools:] {
		if d.Name != "" {
			if t.tools > 0 {
				t.answer.WriteString("\n")
			}
			t.answer.WriteString("⚙ " + d.Name + "\n")
			t.pretty = prettyJSON{}
		}
		t.pretty.write(&t.answer, d.Arguments)
		t.tools++
	}
	if s.Result == nil || t.settled || !s.Result.OK() {
		return
	}
	t.settled = true
	call := s.toolCall
	if t.answer.Len() > 0 {
		t.answer.WriteString("\n")
	}
	if call.Valid {
		t.answer.WriteString("✓ valid")
	} else {
		t.answer.WriteString("✗ " + call.Problem)
	}
}

// workloadRate is run's Metric and Rate when the verdict compares a
// workload's own figure (the time to a complete tool call, to valid JSON,
// the prefill estimate, the warm TTFT, the conversation's time): what the
// leaderboard ranks by; "" under chat. HasRate false when run has none.
func workloadRate(run metrics.Summary) (metric string, rate float64, ok bool) {
	switch m := run.Metric(); m {
	case metrics.VerdictMetric, metrics.FinishMetric:
		return "", 0, false
	default:
		if rate := run.Rate(); !math.IsNaN(rate) {
			return m, rate, true
		}
		return m, 0, false
	}
}

// WorkloadRun is where the race on screen stands in its workload's run
// (workload.Steps: a long-context run is one race per size, cached-prefix
// a cold race then a warm one, multi-turn one race per turn; the others
// one race) and one provider's figures over the run's races that have
// finished, metrics.WorkloadRunsOf's: bench's figures for the same races.
// The leaderboard's workload columns, the presenter's headline and the
// workload panels read it.
type WorkloadRun struct {
	Name        string // the workload (workload.Label)
	Step, Steps int    // the race on screen is step Step (from 1) of Steps
	// OnScreen is the race on screen's step; Spec the workload raced and
	// Concurrency its streams per provider: whose description
	// (Description, Figures) the leaderboard, the lanes and the presenter
	// show.
	OnScreen    workload.Step
	Spec        workload.Workload
	Concurrency int
	// InputTokens is the race on screen's padded prompt size in o200k
	// tokens (long-context, cached-prefix); 0 for a prompt sent as written.
	InputTokens int
	// Finished: the run's races that have finished, the race on screen
	// among them once it has (Finished == Step); stopped races leave a
	// gap: their step has no streams.
	Finished int
	metrics.WorkloadRuns
	// Flags touch the run's finished races (Referee.WorkloadRunFlags):
	// the verdict's, once the run's last race has ended; Load is the
	// client load it weighs client_saturated by.
	Flags metrics.Flags
	Load  *probes.ClientLoad
}

// Description is the workload's (metrics.Describe).
func (w *WorkloadRun) Description() metrics.Description { return metrics.Describe(w.Spec) }

// Figures are the workload's figures (metrics.FiguresOf; the SLO's are
// the leaderboard's referee columns).
func (w *WorkloadRun) Figures() []metrics.Figure {
	return metrics.FiguresOf(w.Spec, false, w.Concurrency)
}

// Settled is whether the race on screen is among the run's finished races.
func (w *WorkloadRun) Settled() bool { return w.Finished >= w.Step }
