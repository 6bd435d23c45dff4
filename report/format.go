package report

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Formats that Write accepts.
var Formats = []string{"table", "json", "csv", "markdown"}

// Write renders b in one of Formats.
func (b *Bench) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		return b.WriteJSON(w)
	case "csv":
		return b.WriteCSV(w)
	case "markdown", "md":
		return b.writeLeaderboard(w, true)
	case "table", "":
		return b.writeLeaderboard(w, false)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// WriteJSON writes the tpsrace.bench/v1 document.
func (b *Bench) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// Ranked returns the providers fastest first: by median output speed, then
// by median TTFT; providers with no completed stream come last.
func (b *Bench) Ranked() []Provider {
	if b.FinishAt != nil {
		return b.rankedByFinish()
	}
	ps := slices.Clone(b.Providers)
	slices.SortStableFunc(ps, func(x, y Provider) int {
		if c := cmpNil(x.Summary.OutputTPS.P50, y.Summary.OutputTPS.P50, -1); c != 0 {
			return c
		}
		return cmpNil(x.Summary.TTFTms.P50, y.Summary.TTFTms.P50, 1)
	})
	return ps
}

// cmpNil orders nil after any value; dir -1 puts larger values first.
func cmpNil(x, y *float64, dir int) int {
	switch {
	case x == nil && y == nil:
		return 0
	case x == nil:
		return 1
	case y == nil:
		return -1
	}
	return dir * cmp.Compare(*x, *y)
}

var leaderboardHeader = []string{"#", "provider", "model", "ok", "TTFT p50", "tok/s p50", "tok/s p95", "aggregate tok/s", "E2E p50", "tokens", "cost/req"}

func (b *Bench) writeLeaderboard(w io.Writer, markdown bool) error {
	rows := [][]string{leaderboardHeader}
	for i, p := range b.Ranked() {
		s := p.Summary
		rows = append(rows, []string{strconv.Itoa(i + 1), p.Name, p.Model, fmt.Sprintf("%d/%d", s.OK, s.OK+s.Failed),
			num(s.TTFTms.P50, 0, " ms"), num(s.OutputTPS.P50, 1, ""), num(s.OutputTPS.P95, 1, ""), num(s.AggregateTPS, 1, ""),
			num(s.E2Ems.P50, 0, " ms"), tokensCell(p), cost(s.CostUSD)})
	}
	var notes []string
	if b.Simulated {
		notes = append(notes, "SIMULATED providers (built-in simulator; no API keys configured): these are not real measurements of any provider.")
	}
	if b.Interrupted {
		notes = append(notes, "INTERRUPTED: the figures cover what was measured before the stop.")
	}
	notes = append(notes, fmt.Sprintf("%d run(s) × %d stream(s) per provider, max_tokens %d.", b.Runs, b.Concurrency, b.MaxTokens))
	for _, p := range b.Providers {
		for _, r := range p.Runs {
			if r.Error != nil {
				notes = append(notes, fmt.Sprintf("%s run %d stream %d failed: %s", p.Name, r.Run, r.Stream, *r.Error))
			}
		}
	}
	if b.FinishAt != nil {
		notes = append(notes, b.finishNote())
	}
	notes = append(notes, "Verdict: "+b.Verdict.Text)
	if markdown {
		for i, r := range rows {
			for j := range r {
				r[j] = strings.ReplaceAll(r[j], "|", `\|`)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
			if i == 0 {
				fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(r)))
			}
		}
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// tokensCell is the median output tokens, with the o200k count beside it
// when the provider's own count differs from it by more than 5%.
func tokensCell(p Provider) string {
	var out, o200k []float64
	for _, r := range p.Runs {
		if r.OK {
			out = append(out, float64(r.OutputTokens))
			o200k = append(o200k, float64(r.O200kTokens))
		}
	}
	o, c := p50p95(out).P50, p50p95(o200k).P50
	if o == nil {
		return "-"
	}
	s := strconv.Itoa(int(*o))
	if *c > 0 && (*o / *c > 1.05 || *c / *o > 1.05) {
		s += fmt.Sprintf(" (o200k %d)", int(*c))
	}
	return s
}

func num(v *float64, prec int, unit string) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', prec, 64) + unit
}

// usd is a cost with all its significant digits (a request costs fractions of a cent).
func usd(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', 6, 64)
}

func cost(v *float64) string {
	switch {
	case v == nil:
		return "-"
	case *v == 0:
		return "$0"
	}
	return fmt.Sprintf("$%.6f", *v)
}

var csvHeader = []string{"provider", "model", "run", "stream", "ok", "error", "ttft_ms", "ttfa_ms", "e2e_ms", "output_tokens",
	"token_source", "o200k_tokens", "output_tps", "itl_p50_ms", "itl_p95_ms", "itl_p99_ms", "content_chars", "reasoning_chars",
	"finish_reason", "server_tps", "cost_usd", "retries"}

// WriteCSV writes one row per stream, the columns of the JSON runs.
func (b *Bench) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	opt := func(v *float64) string { // empty, not "-", so spreadsheets read a blank cell
		if v == nil {
			return ""
		}
		return num(v, 3, "")
	}
	for _, p := range b.Providers {
		for _, r := range p.Runs {
			errText := ""
			if r.Error != nil {
				errText = *r.Error
			}
			f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
			cw.Write([]string{p.Name, p.Model, strconv.Itoa(r.Run), strconv.Itoa(r.Stream), strconv.FormatBool(r.OK), errText,
				opt(r.TTFTms), opt(r.TTFAms), f(r.E2Ems), strconv.Itoa(r.OutputTokens), r.TokenSource, strconv.Itoa(r.O200kTokens),
				opt(r.OutputTPS), f(r.ITLms.P50), f(r.ITLms.P95), f(r.ITLms.P99), strconv.Itoa(r.ContentChars),
				strconv.Itoa(r.ReasoningChars), r.FinishReason, opt(r.ServerTPS), usd(r.CostUSD), strconv.Itoa(r.Retries)})
		}
	}
	cw.Flush()
	return cw.Error()
}
