package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/safetext"
	"tpsrace/workload"
)

// Formats that Write accepts.
var Formats = []string{"table", "json", "csv", "markdown"}

// Write renders b in one of Formats.
func (b *Bench) Write(w io.Writer, as string) error {
	switch as {
	case "json":
		return b.WriteJSON(w)
	case "csv":
		return b.WriteCSV(w)
	case "markdown", "md":
		return b.writeLeaderboard(w, true)
	case "table", "":
		return b.writeLeaderboard(w, false)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", as, strings.Join(Formats, ", "))
}

// WriteJSON writes the tpsrace.bench/v1 document. Every string is exactly
// what was received; the runes a terminal could act on (encoding/json leaves
// C1 controls, DEL and bidi overrides raw) are written as \uXXXX escapes, so
// the document is also safe to print.
//
// MarshalIndent sizes its output at once; an Encoder with SetIndent grew
// its indented copy and the buffer it wrote to by doubling, 16 MB of
// garbage for the 1.6 MB document of a race of 1024 streams, which raised
// bench's peak memory after the race (docs/BENCHMARKS.md, "Scale on one
// box"). The bytes are the same.
func (b *Bench) WriteJSON(w io.Writer) error {
	doc, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(escapeUnsafe(append(doc, '\n')))
	return err
}

// escapeUnsafe writes the safetext.Unsafe runes of encoded JSON as \uXXXX.
// Outside strings JSON is ASCII without controls, so only strings change,
// and they decode to the same text.
func escapeUnsafe(doc []byte) []byte {
	if !bytes.ContainsFunc(doc, unsafeInJSON) { // as a rule: no copy
		return doc
	}
	out := make([]byte, 0, len(doc)+64)
	for _, r := range string(doc) {
		if unsafeInJSON(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

// unsafeInJSON: safetext.Unsafe, but for the line ends of indented JSON.
func unsafeInJSON(r rune) bool { return r != '\n' && safetext.Unsafe(r) }

// column is one column of the leaderboard: numbers are right-aligned.
type column struct {
	header string
	right  bool
	cell   func(rank, i int, p Provider) string // i: the provider's index in the document
}

// columns of the leaderboard. At C=1 aggregate tok/s is left out: it counts
// TTFT, so it reads lower than the per-user speed beside it (the JSON keeps it).
func (b *Bench) columns() []column {
	cols := []column{
		{"#", true, func(rank, _ int, p Provider) string { return strconv.Itoa(rank) }},
		{"provider", false, func(_, _ int, p Provider) string { return p.Name }},
		{"model", false, func(_, _ int, p Provider) string { return p.Model }},
		{"ok", true, func(_, _ int, p Provider) string {
			return fmt.Sprintf("%d/%d", p.Summary.OK, p.Summary.OK+p.Summary.Failed)
		}},
		{"TTFT p50", true, func(_, _ int, p Provider) string { return duration(p.Summary.TTFTms.P50) }},
		{"tok/s p50", true, func(_, _ int, p Provider) string { return speed(p.Summary.OutputTPS.P50) }},
		{"tok/s p95", true, func(_, _ int, p Provider) string { return speed(p.Summary.OutputTPS.P95) }},
	}
	if b.Concurrency > 1 {
		cols = append(cols, column{"aggregate tok/s", true, func(_, _ int, p Provider) string { return speed(p.Summary.AggregateTPS) }})
	}
	cols = append(cols,
		column{"E2E p50", true, func(_, _ int, p Provider) string { return duration(p.Summary.E2Ems.P50) }},
		column{b.tokensHeader(), true, func(_, _ int, p Provider) string { return tokensCell(p) }},
		column{"cost/req", true, func(_, _ int, p Provider) string { return cost(p.Summary.CostUSD) }},
		column{"feel", false, func(_, _ int, p Provider) string { return cmp.Or(deref(p.Summary.FeelLabel), format.Undefined) }},
		column{"flags", false, func(_, _ int, p Provider) string {
			if len(p.Summary.Flags) == 0 {
				return format.Undefined
			}
			return "⚑ " + strings.Join(p.Summary.Flags, ", ")
		}},
	)
	return append(append(cols, b.thinkingColumns()...), b.workloadColumns()...)
}

// workloadColumns are the figures of the race's workload and, under an
// SLO, the SLO's (metrics.FiguresOf), read from each provider's figures
// over the races (benchdoc.Bench.Figures): the same headers and text as
// the dashboard's.
func (b *Bench) workloadColumns() []column {
	return b.figureColumns(metrics.FiguresOf(b.WorkloadOf(), b.UnderSLO(), b.Concurrency))
}

// figureColumns are one column per described figure, each provider's
// read from its figures over the races (benchdoc.Bench.Figures).
func (b *Bench) figureColumns(descriptions []metrics.Figure) []column {
	figs := b.Figures()
	var cols []column
	for _, f := range descriptions {
		cols = append(cols, column{f.Header, true, func(_, i int, _ Provider) string {
			return f.Text(f.Of(figs[i]))
		}})
	}
	return cols
}

// writeLeaderboard writes the table (or Markdown) people paste into posts:
// what was raced and when, the providers best first, a multi-turn race's
// turns, then notes, each failure once with how many streams it ended.
func (b *Bench) writeLeaderboard(w io.Writer, markdown bool) error {
	cols := b.columns()
	rows := [][]string{make([]string, len(cols))}
	right := make([]bool, len(cols))
	for j, c := range cols {
		rows[0][j], right[j] = c.header, c.right
	}
	for rank, i := range b.RankedIndexes() {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = c.cell(rank+1, i, b.Providers[i])
		}
		rows = append(rows, row)
	}
	var notes []string
	if b.Simulated {
		notes = append(notes, b.simulatedNote())
	}
	if b.Interrupted {
		notes = append(notes, "INTERRUPTED: the figures cover what was measured before the stop.")
	}
	if b.Truncated != "" {
		notes = append(notes, "TRUNCATED: "+b.Truncated+"; the figures cover the "+format.Plural(b.Runs, "whole race")+" before the break.")
	}
	notes = append(notes, b.failures()...)
	notes = append(notes, b.serverNotes()...)
	notes = append(notes, b.thinkingNote()...)
	if b.FinishAt != nil {
		notes = append(notes, b.finishNote())
	}
	notes = append(notes, "Verdict: "+b.Verdict.Text)
	if b.Verdict.FlaggedText != "" {
		notes = append(notes, "Referee: "+b.Verdict.FlaggedText)
	}
	notes = append(notes, b.flagNotes()...)
	notes = append(notes, b.sweepNotes()...)
	for i := range notes {
		if markdown {
			notes[i] = safetext.Markdown(notes[i])
		} else {
			notes[i] = safetext.Line(notes[i])
		}
	}
	fmt.Fprintf(w, "%s\n\n", b.heading(markdown))
	writeTable(w, rows, right, markdown)
	if turnRows, turnRight := b.turnTable(); turnRows != nil {
		title := "Turns (p50 over " + format.Plural(b.conversations(), "conversation") + "; time: the turn's E2E, or the whole conversation's)"
		if markdown {
			title = "**" + title + "**"
		}
		fmt.Fprintf(w, "\n%s\n\n", title)
		writeTable(w, turnRows, turnRight, markdown)
	}
	b.writeSweep(w, markdown)
	if markdown {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
		return nil
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// writeTable writes rows (the first is the header) as aligned text or a
// Markdown table; right says which columns are numbers, right-aligned.
// Providers' words act neither on the terminal nor, in Markdown, as
// markup. The words are the left-aligned cells (provider, model); the
// numbers (right-aligned) are this package's own.
func writeTable(w io.Writer, rows [][]string, right []bool, markdown bool) {
	for i, r := range rows {
		for j := range r {
			if markdown && i > 0 && !right[j] {
				r[j] = safetext.Markdown(r[j])
			} else {
				r[j] = safetext.Line(r[j])
			}
		}
	}
	widths := make([]int, len(right))
	if markdown {
		for j := range widths {
			widths[j] = 3 // a Markdown rule is at least "---"
		}
	}
	for _, r := range rows {
		for j, c := range r {
			widths[j] = max(widths[j], ansi.StringWidth(c))
		}
	}
	pad := func(j int, s string) string {
		if right[j] {
			return format.PadLeft(s, widths[j])
		}
		return format.PadRight(s, widths[j])
	}
	for i, r := range rows {
		for j := range r {
			r[j] = pad(j, r[j])
		}
		if !markdown {
			fmt.Fprintln(w, strings.TrimRight(strings.Join(r, "  "), " "))
			continue
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		if i == 0 {
			rule := make([]string, len(right))
			for j := range right {
				rule[j] = strings.Repeat("-", widths[j])
				if right[j] {
					rule[j] = rule[j][1:] + ":"
				}
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(rule, " | "))
		}
	}
}

// turnTable is a multi-turn race's turns, provider by provider in rank
// order: each turn's median TTFT, speed, input tokens and E2E (the
// summary's "turns"), then the conversation's time; nil for the other
// workloads.
func (b *Bench) turnTable() (rows [][]string, right []bool) {
	if b.Workload != workload.MultiTurn {
		return nil, nil
	}
	rows = [][]string{{"provider", "turn", "TTFT p50", "tok/s p50", "input tokens", "time p50"}}
	for _, p := range b.Ranked() {
		for _, t := range p.Summary.Turns {
			input := format.Undefined
			if t.InputTokens != nil {
				input = format.Count(int(math.Round(*t.InputTokens)))
			}
			rows = append(rows, []string{p.Name, strconv.Itoa(t.Turn), duration(t.TTFTms.P50), speed(t.OutputTPS.P50), input, duration(t.E2Ems.P50)})
		}
		conversation := format.Undefined
		if c := p.Summary.ConversationMS; c != nil {
			conversation = duration(c.P50)
		}
		rows = append(rows, []string{p.Name, "all", format.Undefined, format.Undefined, format.Undefined, conversation})
	}
	return rows, []bool{false, true, true, true, true, true}
}

// conversations is how many runs of a multi-turn race there were (a run
// is a conversation, one race per turn).
func (b *Bench) conversations() int {
	most := 0
	for _, p := range b.Providers {
		if len(p.Summary.Turns) > 0 {
			most = max(most, (b.Runs+len(p.Summary.Turns)-1)/len(p.Summary.Turns))
		}
	}
	return most
}

// runs says how many runs, and the races they make under a multi-step
// workload: "3 runs", "2 runs (4 races)".
func (b *Bench) runs() string {
	if b.RacesPerRun > 1 {
		return format.Plural(b.WorkloadRuns(), "run") + " (" + format.Plural(b.Runs, "race") + ")"
	}
	return format.Plural(b.Runs, "run")
}

// heading says what was raced: the prompt, when, how many users (C) and runs.
func (b *Bench) heading(markdown bool) string {
	parts := []string{quotedPrompt(b.Prompt), b.StartedAt.Format("2006-01-02 15:04 MST"),
		fmt.Sprintf("C=%d", b.Concurrency), b.runs(), fmt.Sprintf("max_tokens %s", format.Count(b.MaxTokens))}
	if b.Workload != "" {
		parts = append(parts, "workload "+b.Workload)
	}
	if markdown {
		parts[0] = safetext.Markdown(parts[0])
		return "**Prompt** " + strings.Join(parts, " · ")
	}
	return "Prompt " + strings.Join(parts, " · ")
}

// failures are the notes of the failed streams: alike failures of a
// provider collapse into one line with a count ("groq failed: 16 × 401 …",
// errorTally).
func (b *Bench) failures() []string {
	var notes []string
	for _, p := range b.Providers {
		var tally errorTally
		for _, r := range p.Streams {
			if r.Error != nil {
				tally.add(*r.Error)
			}
		}
		for _, line := range tally.lines(false) {
			notes = append(notes, p.Name+" failed: "+line)
		}
	}
	return notes
}

// tokensHeader says the tokens are per user when there are several (the
// dashboard's header).
func (b *Bench) tokensHeader() string {
	if b.Concurrency > 1 {
		return "tok/user"
	}
	return "tokens"
}

// tokensCell is the output tokens per user (the summary's median over
// every stream), "~" before an o200k estimate, with the o200k count beside
// it when the provider's own count differs from it by more than 5%: the
// dashboard's tokens column, written the same.
func tokensCell(p Provider) string {
	s := p.Summary
	if s.OK == 0 && s.Tokens == 0 {
		return format.Undefined
	}
	return metrics.TokensText(s.Tokens, s.O200kTokens, s.TokenSource)
}

// duration, speed and cost are written as on the dashboard (package format):
// "850ms", "1.24s"; "1,820", "25.3"; "$0.00042"; "-" when undefined.
func duration(ms *float64) string {
	if ms == nil {
		return format.Undefined
	}
	return format.Duration(time.Duration(*ms * float64(time.Millisecond)))
}

func speed(v *float64) string {
	if v == nil {
		return format.Undefined
	}
	return format.TPS(*v)
}

func cost(v *float64) string {
	if v == nil {
		return format.Undefined
	}
	return format.USD(*v)
}

// deref is *p, or T's zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// simulatedNote says that the race's figures are the simulator's: all of
// them, or (a providers file that names sim: models beside real ones) those
// of the providers it names (a document read back that says simulated but
// has no sim: model reads as all of it). Never why they raced (no keys,
// --simulated, a file): only what is true.
func (b *Bench) simulatedNote() string {
	sims := b.SimulatedProviders()
	if len(sims) == 0 || len(sims) == len(b.Providers) {
		return "SIMULATED providers (tpsrace's simulator): these are not real measurements of any provider."
	}
	return "SIMULATED: " + strings.Join(sims, ", ") + " (tpsrace's simulator, sim: models): their figures are not real measurements of any provider."
}
