package report

import (
	"cmp"
	"fmt"
	"strings"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/safetext"
	"tpsrace/workload"
)

// Setup is what was raced. Figures of different setups are never mixed: a
// provider at C=4 is slower per user than at C=1, a longer max_tokens
// changes E2E, another prompt another answer, another workload (a tool call,
// a long prompt) other figures altogether.
type Setup struct {
	Prompt      string
	MaxTokens   int
	Concurrency int
	Workload    string // workload.Names; "" for chat, as the documents leave it out
}

// SetupRaces is one setup of an overview and how much of it was raced.
type SetupRaces struct {
	Setup
	Records int // history lines and bench documents
	Races   int // races: a bench document of 3 runs is 3
	// Figures are its workload's and, when some provider raced under an
	// SLO, the SLO's (metrics.FiguresOf): the columns after the common ones.
	Figures  []metrics.Figure
	workload workload.Workload
	slo      bool
}

// setupOf is what rec raced.
func setupOf(rec Record) Setup {
	return Setup{Prompt: rec.Prompt, MaxTokens: rec.MaxTokens, Concurrency: rec.Concurrency, Workload: rec.Workload}
}

// compare orders setups by workload (chat first), then concurrency, then
// max_tokens, then prompt.
func (s Setup) compare(o Setup) int {
	return cmp.Or(cmp.Compare(s.Workload, o.Workload), cmp.Compare(s.Concurrency, o.Concurrency), cmp.Compare(s.MaxTokens, o.MaxTokens), cmp.Compare(s.Prompt, o.Prompt))
}

// label is `C=1 · max_tokens 30 · prompt "Explain…"`, led by "workload
// tool-call · " for a workload other than chat; quote makes the prompt, text
// from a file, safe for the format (safetext.Line, Markdown).
func (s Setup) label(quote func(string) string) string {
	l := fmt.Sprintf("C=%d · max_tokens %s · prompt %s", s.Concurrency, format.Count(s.MaxTokens), quote(quotedPrompt(s.Prompt)))
	if s.Workload != "" {
		l = "workload " + s.Workload + " · " + l
	}
	return l
}

// differences names what differs between a and b: "workload chat vs
// tool-call; concurrency 1 vs 4; max_tokens 30 vs 100", as plain text.
func differences(a, b Setup) string {
	var d []string
	if a.Workload != b.Workload {
		d = append(d, fmt.Sprintf("workload %s vs %s", workload.Workload{Name: a.Workload}.Label(), workload.Workload{Name: b.Workload}.Label()))
	}
	if a.Concurrency != b.Concurrency {
		d = append(d, fmt.Sprintf("concurrency %d vs %d", a.Concurrency, b.Concurrency))
	}
	if a.MaxTokens != b.MaxTokens {
		d = append(d, fmt.Sprintf("max_tokens %s vs %s", format.Count(a.MaxTokens), format.Count(b.MaxTokens)))
	}
	if a.Prompt != b.Prompt {
		d = append(d, fmt.Sprintf("prompt %s vs %s", safetext.Line(quotedPrompt(a.Prompt)), safetext.Line(quotedPrompt(b.Prompt))))
	}
	return strings.Join(d, "; ")
}

// quotedPrompt is the prompt between double quotes, as one line cut after
// 100 characters: what was raced, short enough for a heading. Its own
// quotes stay as they are (no backslashes), so it reads as sent.
func quotedPrompt(prompt string) string {
	const limit = 100
	r := []rune(safetext.Line(prompt))
	if len(r) > limit {
		r = append(r[:limit], '…')
	}
	return `"` + string(r) + `"`
}
