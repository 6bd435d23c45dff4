package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"tpsrace/benchdoc"
	"tpsrace/safetext"
	"tpsrace/workload"
)

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
// a blank cell, never 0. A sweep's CSV is its curve instead: one row per
// level and provider (writeSweepCSV).
func (b *Bench) WriteCSV(w io.Writer) error {
	if b.Sweep != nil {
		return b.writeSweepCSV(w)
	}
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, p := range b.Providers {
		for _, r := range p.Streams {
			var itl [3]*float64
			if r.ITLms != nil {
				itl = [3]*float64{&r.ITLms.P50, &r.ITLms.P95, &r.ITLms.P99}
			}
			row := []string{p.Name, p.Model, strconv.Itoa(r.Race), strconv.Itoa(r.Index), strconv.FormatBool(r.OK), deref(r.Error),
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
