package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"tpsrace/benchdoc"
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
func (b *Bench) WriteJSON(w io.Writer) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return err
	}
	_, err := w.Write(escapeUnsafe(buf.Bytes()))
	return err
}

// escapeUnsafe writes the safetext.Unsafe runes of encoded JSON as \uXXXX.
// Outside strings JSON is ASCII without controls, so only strings change,
// and they decode to the same text.
func escapeUnsafe(doc []byte) []byte {
	if !bytes.ContainsFunc(doc, safetext.Unsafe) {
		return doc
	}
	out := make([]byte, 0, len(doc)+64)
	for _, r := range string(doc) {
		if r != '\n' && safetext.Unsafe(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

// column is one column of the leaderboard: numbers are right-aligned.
type column struct {
	header string
	right  bool
	cell   func(rank int, p Provider) string
}

// columns of the leaderboard. At C=1 aggregate tok/s is left out: it counts
// TTFT, so it reads lower than the per-user speed beside it (the JSON keeps it).
func (b *Bench) columns() []column {
	cols := []column{
		{"#", true, func(rank int, p Provider) string { return strconv.Itoa(rank) }},
		{"provider", false, func(_ int, p Provider) string { return p.Name }},
		{"model", false, func(_ int, p Provider) string { return p.Model }},
		{"ok", true, func(_ int, p Provider) string {
			return fmt.Sprintf("%d/%d", p.Summary.OK, p.Summary.OK+p.Summary.Failed)
		}},
		{"TTFT p50", true, func(_ int, p Provider) string { return duration(p.Summary.TTFTms.P50) }},
		{"tok/s p50", true, func(_ int, p Provider) string { return speed(p.Summary.OutputTPS.P50) }},
		{"tok/s p95", true, func(_ int, p Provider) string { return speed(p.Summary.OutputTPS.P95) }},
	}
	if b.Concurrency > 1 {
		cols = append(cols, column{"aggregate tok/s", true, func(_ int, p Provider) string { return speed(p.Summary.AggregateTPS) }})
	}
	cols = append(cols,
		column{"E2E p50", true, func(_ int, p Provider) string { return duration(p.Summary.E2Ems.P50) }},
		column{b.tokensHeader(), true, func(_ int, p Provider) string { return tokensCell(p) }},
		column{"cost/req", true, func(_ int, p Provider) string { return cost(p.Summary.CostUSD) }},
		column{"feel", false, func(_ int, p Provider) string { return cmp.Or(deref(p.Summary.FeelLabel), format.Undefined) }},
		column{"flags", false, func(_ int, p Provider) string {
			if len(p.Summary.Flags) == 0 {
				return format.Undefined
			}
			return "⚑ " + strings.Join(p.Summary.Flags, ", ")
		}},
	)
	return append(append(cols, b.thinkingColumns()...), b.workloadColumns()...)
}

// workloadColumns are the figures of the race's workload (none for chat):
// a tool call's first delta, complete call and validity; a long-context
// sweep's prefill estimate.
func (b *Bench) workloadColumns() []column {
	switch b.Workload {
	case workload.ToolCall:
		tool := func(p Provider) benchdoc.ToolSummary {
			if p.Summary.ToolCall == nil {
				return benchdoc.ToolSummary{}
			}
			return *p.Summary.ToolCall
		}
		return []column{
			{"first call p50", true, func(_ int, p Provider) string { return duration(tool(p).FirstMS.P50) }},
			{"complete call p50", true, func(_ int, p Provider) string { return duration(tool(p).CompleteMS.P50) }},
			{"valid", true, func(_ int, p Provider) string { return fmt.Sprintf("%d/%d", tool(p).Valid, tool(p).Streams) }},
		}
	case workload.MultiTurn:
		return []column{{"conversation p50", true, func(_ int, p Provider) string {
			if c := p.Summary.ConversationMS; c != nil {
				return duration(c.P50)
			}
			return format.Undefined
		}}}
	case workload.JSON:
		answer := func(p Provider) benchdoc.JSONSummary {
			if p.Summary.JSON == nil {
				return benchdoc.JSONSummary{}
			}
			return *p.Summary.JSON
		}
		return []column{
			{"first byte p50", true, func(_ int, p Provider) string { return duration(answer(p).FirstMS.P50) }},
			{"valid JSON p50", true, func(_ int, p Provider) string { return duration(answer(p).ValidMS.P50) }},
			{"valid", true, func(_ int, p Provider) string { return fmt.Sprintf("%d/%d", answer(p).Valid, answer(p).Streams) }},
		}
	case workload.CachedPrefix:
		cache := func(p Provider) benchdoc.PrefixCache {
			if p.Summary.PrefixCache == nil {
				return benchdoc.PrefixCache{}
			}
			return *p.Summary.PrefixCache
		}
		return []column{
			{"cold TTFT", true, func(_ int, p Provider) string { return duration(cache(p).ColdTTFTms.P50) }},
			{"warm TTFT", true, func(_ int, p Provider) string { return duration(cache(p).WarmTTFTms.P50) }},
			{"saving", true, func(_ int, p Provider) string {
				if s := cache(p).Saving; s != nil {
					return format.Percent(*s)
				}
				return format.Undefined
			}},
			{"cached", true, func(_ int, p Provider) string {
				if c := cache(p).CachedTokens; c != nil {
					return format.Tokens(*c)
				}
				return format.Undefined
			}},
		}
	case workload.LongContext:
		return []column{{"prefill tok/s", true, func(_ int, p Provider) string {
			if p.Summary.PrefillTPS == nil || *p.Summary.PrefillTPS == nil {
				return format.Undefined
			}
			return "≈ " + format.TPS(**p.Summary.PrefillTPS)
		}}}
	}
	return nil
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
	for i, p := range b.Ranked() {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = c.cell(i+1, p)
		}
		rows = append(rows, row)
	}
	var notes []string
	if b.Simulated {
		// Never why they raced (no keys, --simulated, a file of either): only what is true.
		notes = append(notes, "SIMULATED providers (the built-in simulator): these are not real measurements of any provider.")
	}
	if b.Interrupted {
		notes = append(notes, "INTERRUPTED: the figures cover what was measured before the stop.")
	}
	if b.Truncated != "" {
		notes = append(notes, "TRUNCATED: "+b.Truncated+"; the figures cover the "+strconv.Itoa(b.Runs)+" whole race(s) before the break.")
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
		title := "Turns (p50 over " + plural(b.conversations(), "conversation") + "; time: the turn's E2E, or the whole conversation's)"
		if markdown {
			title = "**" + title + "**"
		}
		fmt.Fprintf(w, "\n%s\n\n", title)
		writeTable(w, turnRows, turnRight, markdown)
	}
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
		return plural(b.WorkloadRuns(), "run") + " (" + plural(b.Runs, "race") + ")"
	}
	return plural(b.Runs, "run")
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

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return format.Count(n) + " " + noun + "s"
}

// failures are the notes of the failed streams: identical failures of a
// provider collapse into one line with a count ("groq: 16 × 401 …").
func (b *Bench) failures() []string {
	var notes []string
	for _, p := range b.Providers {
		var order []string
		count := map[string]int{}
		for _, r := range p.Runs {
			if r.Error == nil {
				continue
			}
			if count[*r.Error] == 0 {
				order = append(order, *r.Error)
			}
			count[*r.Error]++
		}
		for _, e := range order {
			notes = append(notes, fmt.Sprintf("%s failed: %s × %s", p.Name, format.Count(count[e]), e))
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

var csvHeader = []string{"provider", "model", "run", "stream", "ok", "error", "ttft_ms", "ttfa_ms", "e2e_ms", "output_tokens",
	"token_source", "o200k_tokens", "output_tps", "itl_p50_ms", "itl_p95_ms", "itl_p99_ms", "content_chars", "reasoning_chars",
	"finish_reason", "server_tps", "cost_usd", "retries",
	// The workload's columns, blank where the workload does not define them.
	"workload", "prompt_tokens", "input_tokens", "cached_prompt_tokens", "server_prompt_tps", "cache", "turn",
	"tool_call_first_ms", "tool_call_complete_ms", "tool_call_name", "tool_call_args_tokens", "tool_call_args_tps", "tool_call_valid",
	"json_first_ms", "json_valid_ms", "json_valid",
	// The stream's phases (metrics.Phases).
	"thinking_tokens", "hidden_reasoning_tokens", "thinking_tps", "answer_tps",
	// Last, so no column moves: every row says whether it was measured at all
	// (a spreadsheet keeps no note above the table).
	"simulated"}

// WriteCSV writes one row per stream, the columns of the JSON runs: a
// figure that is null in the JSON, or absent under the race's workload, is
// a blank cell, never 0.
func (b *Bench) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, p := range b.Providers {
		for _, r := range p.Runs {
			var itl [3]*float64
			if r.ITLms != nil {
				itl = [3]*float64{&r.ITLms.P50, &r.ITLms.P95, &r.ITLms.P99}
			}
			row := []string{p.Name, p.Model, strconv.Itoa(r.Run), strconv.Itoa(r.Stream), strconv.FormatBool(r.OK), deref(r.Error),
				csvOpt(r.TTFTms), csvOpt(r.TTFAms), csvFloat(r.E2Ems), strconv.Itoa(r.OutputTokens), r.TokenSource, strconv.Itoa(r.O200kTokens),
				csvOpt(r.OutputTPS), csvOpt(itl[0]), csvOpt(itl[1]), csvOpt(itl[2]), strconv.Itoa(r.ContentChars),
				strconv.Itoa(r.ReasoningChars), deref(r.FinishReason), csvOpt(r.ServerTPS), csvOpt(r.CostUSD), strconv.Itoa(r.Retries),
				workload.Workload{Name: r.Workload}.Label(), strconv.Itoa(r.PromptTokens), csvInt(r.InputTokens), csvInt(r.CachedPromptTokens),
				csvOpt(r.ServerPromptTPS), deref(r.Cache), csvInt(r.Turn)}
			row = append(row, toolCallCells(r.ToolCall)...)
			row = append(row, jsonCells(r.JSON)...)
			row = append(row, thinkingCells(r)...)
			row = append(row, strconv.FormatBool(b.Simulated))
			writeCSVRow(cw, row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// toolCallCells are a stream's tool_call columns: all blank outside the
// tool-call workload; first_ms and name blank when no call came,
// complete_ms when it never completed valid, args_tps for a call sent whole.
func toolCallCells(t *benchdoc.ToolCall) []string {
	if t == nil {
		return make([]string, 6)
	}
	return []string{csvOpt(t.FirstMS), csvOpt(t.CompleteMS), deref(t.Name), strconv.Itoa(t.ArgsTokens), csvOpt(t.ArgsTPS), strconv.FormatBool(t.Valid)}
}

// jsonCells are a stream's json columns: all blank outside the json
// workload; first_ms blank without answer text, valid_ms when it never validated.
func jsonCells(j *benchdoc.JSONRun) []string {
	if j == nil {
		return make([]string, 3)
	}
	return []string{csvOpt(j.FirstMS), csvOpt(j.ValidMS), strconv.FormatBool(j.Valid)}
}

// csvFloat, csvOpt and csvInt are a figure as the JSON has it: csvOpt and
// csvInt blank (not "-") for null, so spreadsheets read a blank cell.
func csvFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func csvOpt(v *float64) string {
	if v == nil {
		return ""
	}
	return csvFloat(*v)
}

func csvInt(v *int) string {
	if v == nil {
		return ""
	}
	return strconv.Itoa(*v)
}

// csvCell is s safe to open in a spreadsheet and to print: no control
// characters, and a cell that a spreadsheet would run as a formula (it starts
// with =, +, - or @) gets a leading ' so it reads as text. Numbers are left
// as they are.
func csvCell(s string) string {
	s = safetext.Line(s)
	if s == "" || !strings.ContainsRune("=+-@", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}
