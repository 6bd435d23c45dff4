package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"tpsrace/benchdoc"
	"tpsrace/format"
	"tpsrace/metrics"
)

// sweepRow is one provider at one level of a sweep.
type sweepRow struct {
	concurrency int
	p           benchdoc.SweepPoint
	knee        bool // this level is the provider's knee
	oneUser     bool // one race of one user: its aggregate has no spread to read
}

// sweepColumn is one figure of a sweep row: its table header and cell, its
// CSV key and cell (the JSON's number, blank for null). An empty header
// keeps it out of the table, an empty key out of the CSV.
type sweepColumn struct {
	header, key string
	right       bool
	text, csv   func(r sweepRow) string
}

// sweepColumns are the sweep's figures, the table's and the CSV's; goodput
// only under an SLO.
func sweepColumns(slo bool) []sweepColumn {
	cols := []sweepColumn{
		{"C", "concurrency", true, func(r sweepRow) string { return strconv.Itoa(r.concurrency) }, nil},
		{"provider", "provider", false, func(r sweepRow) string { return r.p.Name }, nil},
		{"ok", "ok", true, func(r sweepRow) string { return fmt.Sprintf("%d/%d", r.p.OK, r.p.OK+r.p.Failed) },
			func(r sweepRow) string { return strconv.Itoa(r.p.OK) }},
		{"", "failed", true, nil, func(r sweepRow) string { return strconv.Itoa(r.p.Failed) }},
		{"per user tok/s", "per_user_tps", true, func(r sweepRow) string { return speed(r.p.PerUserTPS) }, func(r sweepRow) string { return csvOpt(r.p.PerUserTPS) }},
		{"aggregate tok/s", "aggregate_tps", true, func(r sweepRow) string { return speed(r.p.AggregateTPS) }, func(r sweepRow) string { return csvOpt(r.p.AggregateTPS) }},
		{"±", "", true, within, nil},
		{"", "aggregate_min", true, nil, func(r sweepRow) string { return csvOpt(r.p.AggregateMin) }},
		{"", "aggregate_max", true, nil, func(r sweepRow) string { return csvOpt(r.p.AggregateMax) }},
		{"TTFT p50", "ttft_p50_ms", true, func(r sweepRow) string { return duration(r.p.TTFTms.P50) }, func(r sweepRow) string { return csvOpt(r.p.TTFTms.P50) }},
		{"TTFT p95", "ttft_p95_ms", true, func(r sweepRow) string { return duration(r.p.TTFTms.P95) }, func(r sweepRow) string { return csvOpt(r.p.TTFTms.P95) }},
		{"E2E p50", "e2e_p50_ms", true, func(r sweepRow) string { return duration(r.p.E2Ems.P50) }, func(r sweepRow) string { return csvOpt(r.p.E2Ems.P50) }},
	}
	if slo {
		cols = append(cols,
			sweepColumn{"goodput", "goodput_share", true, func(r sweepRow) string { return goodputCell(r.p.Goodput) },
				func(r sweepRow) string {
					if r.p.Goodput == nil {
						return ""
					}
					return csvFloat(r.p.Goodput.Share)
				}},
			sweepColumn{"", "goodput_per_second", true, nil, func(r sweepRow) string {
				if r.p.Goodput == nil {
					return ""
				}
				return csvOpt(r.p.Goodput.PerSecond)
			}})
	}
	return append(cols,
		sweepColumn{"knee", "knee", false, func(r sweepRow) string { return map[bool]string{true: "◀ knee", false: ""}[r.knee] },
			func(r sweepRow) string { return strconv.FormatBool(r.knee) }},
		sweepColumn{"flags", "flags", false, func(r sweepRow) string {
			if len(r.p.Flags) == 0 {
				return format.Undefined
			}
			return "⚑ " + strings.Join(r.p.Flags, ", ")
		}, func(r sweepRow) string { return strings.Join(r.p.Flags, " ") }},
	)
}

// within is the aggregate's uncertainty as the share its range reaches
// from the median: "±2%"; "-" without an aggregate, or for one race of one
// user, whose range (none) says nothing.
func within(r sweepRow) string {
	p := r.p
	if p.AggregateTPS == nil || *p.AggregateTPS == 0 || r.oneUser {
		return format.Undefined
	}
	s := metrics.Spread{Median: *p.AggregateTPS, Min: *p.AggregateMin, Max: *p.AggregateMax, Runs: 2}
	return "±" + format.Percent(s.Within())
}

func goodputCell(g *benchdoc.Goodput) string {
	if g == nil {
		return format.Undefined
	}
	return format.Percent(g.Share)
}

// sweepRows are the sweep's rows, level by level, the providers in the
// document's order.
func (b *Bench) sweepRows() []sweepRow {
	knees := map[string]int{}
	for _, k := range b.Knees {
		if k.Concurrency != nil {
			knees[k.Name] = *k.Concurrency
		}
	}
	var rows []sweepRow
	for _, level := range b.Levels {
		for _, p := range level.Providers {
			rows = append(rows, sweepRow{level.Concurrency, p, knees[p.Name] == level.Concurrency, level.Concurrency == 1 && b.Runs == 1})
		}
	}
	return rows
}

// hasGoodput is whether some level measured goodput (an SLO was set).
func (b *Bench) hasGoodput() bool {
	for _, r := range b.sweepRows() {
		if r.p.Goodput != nil {
			return true
		}
	}
	return false
}

// writeSweep writes the sweep's table under the leaderboard (the first
// level's), and says what the knee is; nothing without a sweep.
func (b *Bench) writeSweep(w io.Writer, markdown bool) {
	if b.Sweep == nil {
		return
	}
	var cols []sweepColumn
	for _, c := range sweepColumns(b.hasGoodput()) {
		if c.header != "" {
			cols = append(cols, c)
		}
	}
	rows := [][]string{make([]string, len(cols))}
	right := make([]bool, len(cols))
	for j, c := range cols {
		rows[0][j], right[j] = c.header, c.right
	}
	for _, r := range b.sweepRows() {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = c.text(r)
		}
		rows = append(rows, row)
	}
	title := fmt.Sprintf("Concurrency sweep (%s per level; the table above is C=%d)", format.Plural(b.WorkloadRuns(), "race"), b.Concurrency)
	if markdown {
		title = "**" + title + "**"
	}
	fmt.Fprintf(w, "\n%s\n\n", title)
	writeTable(w, rows, right, markdown)
}

// sweepNotes are the sweep's verdict, why it stopped climbing, and what
// the knee means.
func (b *Bench) sweepNotes() []string {
	if b.Sweep == nil {
		return nil
	}
	notes := []string{"Sweep: " + b.SweepVerdict}
	notes = append(notes, fmt.Sprintf("Knee: the lowest level C whose doubling to 2C gains under %s aggregate tok/s (docs/SWEEP.md); "+
		"± is the aggregate's spread over the level's races (one race: its users' spread ÷ √C); ⚑ client_saturated levels are left out of it.",
		format.Percent(metrics.KneeGain)))
	return notes
}

// writeSweepCSV writes one row per level and provider (the sweep's
// columns): a sweep's curve, which is what a spreadsheet plots.
func (b *Bench) writeSweepCSV(w io.Writer) error {
	cols := sweepColumns(b.hasGoodput())
	cw := csv.NewWriter(w)
	var header []string
	for _, c := range cols {
		if c.key != "" {
			header = append(header, c.key)
		}
	}
	cw.Write(append(header, "simulated"))
	for _, r := range b.sweepRows() {
		var row []string
		for _, c := range cols {
			switch {
			case c.key == "":
			case c.csv != nil:
				row = append(row, c.csv(r))
			default:
				row = append(row, c.text(r))
			}
		}
		writeCSVRow(cw, append(row, strconv.FormatBool(b.Simulated)))
	}
	cw.Flush()
	return cw.Error()
}
