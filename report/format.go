package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"tpsrace/metrics"
	"tpsrace/safetext"
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

// Ranked returns the providers best first by metrics.Rank, the dashboard's
// rule: by median output speed, then median TTFT; providers with no
// completed stream come last.
func (b *Bench) Ranked() []Provider {
	standings := make([]metrics.Standing, len(b.Providers))
	for i, p := range b.Providers {
		s := &standings[i]
		s.Failed = p.Summary.OK == 0
		if v := p.Summary.OutputTPS.P50; v != nil {
			s.Speed, s.HasSpeed = *v, true
		}
		if v := p.Summary.TTFTms.P50; v != nil {
			s.TTFT, s.HasTTFT = time.Duration(*v*float64(time.Millisecond)), true
		}
	}
	ranked := make([]Provider, len(b.Providers))
	for i, k := range metrics.Rank(standings) {
		ranked[i] = b.Providers[k]
	}
	return ranked
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
	for _, r := range rows { // providers' words must not act on the terminal
		for j := range r {
			r[j] = safetext.Line(r[j])
		}
	}
	for i := range notes {
		notes[i] = safetext.Line(notes[i])
	}
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
	o, c := median(out), median(o200k)
	if o == nil {
		return "-"
	}
	s := strconv.Itoa(int(*o))
	if metrics.TokenCountsDiffer(int(*o), int(*c)) {
		s += fmt.Sprintf(" (o200k %d)", int(*c))
	}
	return s
}

// median of v; nil without values.
func median(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	return ptr(metrics.Percentile(slices.Sorted(slices.Values(v)), 50))
}

func num(v *float64, prec int, unit string) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', prec, 64) + unit
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	var itl [3]*float64
	for _, p := range b.Providers {
		for _, r := range p.Runs {
			errText := ""
			if r.Error != nil {
				errText = *r.Error
			}
			f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
			itl = [3]*float64{}
			if r.ITLms != nil {
				itl = [3]*float64{&r.ITLms.P50, &r.ITLms.P95, &r.ITLms.P99}
			}
			row := []string{p.Name, p.Model, strconv.Itoa(r.Run), strconv.Itoa(r.Stream), strconv.FormatBool(r.OK), errText,
				opt(r.TTFTms), opt(r.TTFAms), f(r.E2Ems), strconv.Itoa(r.OutputTokens), r.TokenSource, strconv.Itoa(r.O200kTokens),
				opt(r.OutputTPS), opt(itl[0]), opt(itl[1]), opt(itl[2]), strconv.Itoa(r.ContentChars),
				strconv.Itoa(r.ReasoningChars), deref(r.FinishReason), opt(r.ServerTPS), opt(r.CostUSD), strconv.Itoa(r.Retries)}
			for i := range row {
				row[i] = csvCell(row[i])
			}
			cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
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
