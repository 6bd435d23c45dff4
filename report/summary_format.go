package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/safetext"
	"tpsrace/workload"
)

// OverviewFormats that Overview.Write and WriteComparison accept.
var OverviewFormats = []string{"markdown", "csv", "html"}

// Write renders s as Markdown or CSV (WriteHTML renders HTML).
// Undefined figures are "-" in Markdown and blank in CSV, never 0.
func (s Overview) Write(w io.Writer, format string) error {
	switch format {
	case "markdown", "md":
		return s.writeMarkdown(w)
	case "csv":
		return s.writeCSV(w)
	}
	return fmt.Errorf("unknown format %q (want markdown or csv)", format)
}

var groupHeader = []string{"races", "ok", "failed", "TTFT p50", "TTFT p95", "TTFT best", "TTFT worst",
	"tok/s p50", "tok/s p95", "tok/s best", "tok/s worst", "E2E p50", "E2E p95", "failures"}

// header is a setup's columns after the words: groupHeader, then its
// figures' (SetupRaces.Figures).
func (sr SetupRaces) header() []string {
	h := slices.Clone(groupHeader)
	for _, f := range sr.Figures {
		h = append(h, f.Header)
	}
	return h
}

// cells are a group's figures as shown in Markdown and HTML, in the
// setup's header's order.
func (g Group) cells(figs []metrics.Figure) []string {
	cells := []string{strconv.Itoa(g.Races), strconv.Itoa(g.OK), strconv.Itoa(g.Failed),
		duration(g.TTFTms.P50), duration(g.TTFTms.P95), duration(g.TTFTms.Best), duration(g.TTFTms.Worst),
		speed(g.OutputTPS.P50), speed(g.OutputTPS.P95), speed(g.OutputTPS.Best), speed(g.OutputTPS.Worst),
		duration(g.E2Ems.P50), duration(g.E2Ems.P95), g.failureText()}
	for _, f := range figs {
		cells = append(cells, f.Text(f.Of(g.Figures)))
	}
	return cells
}

// failureText is "http 2, timeout 1" in the order of probes.Kinds, "none" without failures.
func (g Group) failureText() string {
	var parts []string
	for _, k := range probes.Kinds {
		if n := g.Failures[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// errorLines are the group's failures by message, most frequent first:
// "9 × 503 service_unavailable: …", at most five, then how many more.
func (g Group) errorLines() []string {
	const most = 5
	lines := g.Errors.lines(true)
	if len(lines) > most {
		lines = append(lines[:most], fmt.Sprintf("… and %s more", format.Plural(len(lines)-most, "message")))
	}
	return lines
}

// failureNotes are the lines of a setup's failures section, one per
// provider and message: "broken (sim:fault=503): 9 × 503 …", words from
// outside made safe by quote.
func failureNotes(groups []Group, quote func(string) string) []string {
	var notes []string
	for _, g := range groups {
		for _, e := range g.errorLines() {
			notes = append(notes, quote(g.Provider+" ("+g.Model+"): "+e))
		}
	}
	return notes
}

// orDash shows an empty label (a bench file has no probe) as "-".
func orDash(s string) string {
	if s == "" {
		return format.Undefined
	}
	return s
}

// notes are the lines under a summary: what the figures cover.
func (s Overview) notes() []string {
	var notes []string
	if s.Simulated {
		notes = append(notes, "Includes SIMULATED providers (tpsrace's simulator): not real measurements of any provider.")
	}
	if s.Interrupted > 0 {
		notes = append(notes, format.Plural(s.Interrupted, "interrupted stream")+" left out: tpsrace was stopped while "+format.OneOrMany(s.Interrupted, "it", "they")+" ran.")
	}
	return append(notes, "Percentiles, best and worst are over the streams that measured them: TTFT over every stream with text, speed and E2E over completed streams; output speed (tok/s) is per user.")
}

// writeMarkdown writes one section per setup (figures of different setups
// never share a table), then the notes.
func (s Overview) writeMarkdown(w io.Writer) error {
	for _, sr := range s.Setups {
		fmt.Fprintf(w, "## %s\n\n%s\n\n", sr.label(safetext.Markdown), sr.count())
		fmt.Fprintln(w, "### By provider")
		fmt.Fprintln(w)
		rows := [][]string{append([]string{"provider", "model"}, sr.header()...)}
		for _, g := range inSetup(s.Providers, sr.Setup) {
			rows = append(rows, append([]string{g.Provider, g.Model}, g.cells(sr.Figures)...))
		}
		writeMarkdownTable(w, rows, 2)
		if thinking := thinkingRows(inSetup(s.Providers, sr.Setup)); thinking != nil {
			fmt.Fprint(w, "\n### Reasoning\n\n")
			writeMarkdownTable(w, thinking, 2)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, "### By provider, probe and day")
		fmt.Fprintln(w)
		rows = [][]string{append([]string{"provider", "model", "probe", "day"}, sr.header()...)}
		for _, g := range inSetup(s.ByProbeDay, sr.Setup) {
			rows = append(rows, append([]string{g.Provider, g.Model, orDash(safetext.Markdown(g.Probe)), g.Day}, g.cells(sr.Figures)...))
		}
		writeMarkdownTable(w, rows, 2) // the probe is escaped above: its "-" for none is this package's
		fmt.Fprintln(w)
		if notes := failureNotes(inSetup(s.Providers, sr.Setup), safetext.Markdown); len(notes) > 0 {
			fmt.Fprint(w, "### Failures\n\n")
			for _, n := range notes {
				fmt.Fprintf(w, "- %s\n", n)
			}
			fmt.Fprintln(w)
		}
	}
	for _, n := range s.notes() {
		fmt.Fprintf(w, "- %s\n", n)
	}
	return nil
}

// count is "2 records, 6 races": a history line is one race, a bench
// document as many as its runs.
func (sr SetupRaces) count() string {
	return format.Plural(sr.Records, "record") + ", " + format.Plural(sr.Races, "race")
}

// inSetup is the groups of one setup, in their order.
func inSetup(groups []Group, setup Setup) []Group {
	var out []Group
	for _, g := range groups {
		if g.Setup == setup {
			out = append(out, g)
		}
	}
	return out
}

// writeMarkdownTable writes rows (the first is the header). The first
// `words` cells of each row are words from files or providers (names,
// probes): they go through safetext.Markdown, so they render as the same
// characters and never as markup. The others are this package's figures
// and headers: plain text (safetext.Line), a pipe escaped.
func writeMarkdownTable(w io.Writer, rows [][]string, words int) {
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, c := range r {
			if j < words || i == 0 {
				cells[j] = safetext.Markdown(c)
			} else {
				cells[j] = strings.ReplaceAll(safetext.Line(c), "|", `\|`)
			}
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		if i == 0 {
			fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(r)))
		}
	}
}

// csvNum is a figure with 3 decimals, blank where undefined (a spreadsheet
// reads a blank cell as missing, a 0 as a measurement).
func csvNum(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

// writeCSV writes one row per setup, provider, model, probe and day, with
// one failures column per kind, then the setup's four columns and, last,
// whether any of its races was simulated (a spreadsheet keeps no note).
func (s Overview) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"provider", "model", "probe", "day", "races", "ok", "failed"}
	for _, f := range []string{"ttft_ms", "output_tps", "e2e_ms"} {
		header = append(header, f+"_p50", f+"_p95", f+"_best", f+"_worst")
	}
	for _, k := range probes.Kinds {
		header = append(header, "failures_"+k)
	}
	header = append(header, thinkingCSVHeader...)
	header = append(header, "concurrency", "max_tokens", "prompt", "workload", "simulated")
	figs, ofSetup := s.csvFigures(), map[Setup][]metrics.Figure{}
	for _, sr := range s.Setups {
		ofSetup[sr.Setup] = sr.Figures
	}
	for _, f := range figs {
		header = append(header, f.Key)
	}
	cw.Write(header)
	for _, g := range s.ByProbeDay {
		row := []string{g.Provider, g.Model, g.Probe, g.Day, strconv.Itoa(g.Races), strconv.Itoa(g.OK), strconv.Itoa(g.Failed)}
		for _, st := range []Stats{g.TTFTms, g.OutputTPS, g.E2Ems} {
			row = append(row, csvNum(st.P50), csvNum(st.P95), csvNum(st.Best), csvNum(st.Worst))
		}
		for _, k := range probes.Kinds {
			row = append(row, strconv.Itoa(g.Failures[k]))
		}
		row = append(row, g.Thinking.csvCells()...)
		row = append(row, strconv.Itoa(g.Setup.Concurrency), strconv.Itoa(g.Setup.MaxTokens), g.Setup.Prompt, workload.Workload{Name: g.Setup.Workload}.Label(),
			strconv.FormatBool(g.Simulated))
		for _, f := range figs {
			row = append(row, csvFigure(f, g, ofSetup[g.Setup]))
		}
		writeCSVRow(cw, row)
	}
	cw.Flush()
	return cw.Error()
}

// writeCSVRow writes row with every cell made safe for a spreadsheet (csvCell).
func writeCSVRow(cw *csv.Writer, row []string) {
	for i := range row {
		row[i] = csvCell(row[i])
	}
	cw.Write(row)
}

// csvFigures are the workload and SLO figures of every setup, each once
// (by its JSON key), in the setups' order: the CSV's last columns, blank
// on the rows of a setup without them, so no column moves.
func (s Overview) csvFigures() []metrics.Figure {
	var figs []metrics.Figure
	seen := map[string]bool{}
	for _, sr := range s.Setups {
		for _, f := range sr.Figures {
			if !seen[f.Key] {
				seen[f.Key] = true
				figs = append(figs, f)
			}
		}
	}
	return figs
}

// csvFigure is f of g as a number in the JSON's unit (ms for a time, a
// count as its share), blank where undefined or not g's setup's.
func csvFigure(f metrics.Figure, g Group, setup []metrics.Figure) string {
	i := slices.IndexFunc(setup, func(x metrics.Figure) bool { return x.Key == f.Key })
	if i < 0 {
		return ""
	}
	v, ok := f.GaugeValue(f.Of(g.Figures))
	if !ok {
		return ""
	}
	if f.Unit == metrics.Seconds {
		v *= 1000
	}
	return csvNum(&v)
}
