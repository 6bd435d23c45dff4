package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
)

// sweepDoc is a two-level sweep of two providers; fast's knee is at 8.
func sweepDoc() *Bench {
	f := func(v float64) *float64 { return &v }
	point := func(name string, perUser, aggregate float64, bent bool) benchdoc.SweepPoint {
		p := benchdoc.SweepPoint{Name: name, OK: 8, PerUserTPS: f(perUser), AggregateTPS: f(aggregate), AggregateMin: f(aggregate * 0.98),
			AggregateMax: f(aggregate * 1.02), TTFTms: benchdoc.Percentiles2{P50: f(120), P95: f(150)}, E2Ems: benchdoc.Percentiles2{P50: f(900)},
			ClientBent: bent, Flags: []string{}, Evidence: map[string]string{}}
		if bent {
			p.Flags = []string{"client_saturated"}
		}
		return p
	}
	eight := 8
	b := &benchdoc.Bench{Schema: benchdoc.Schema, StartedAt: time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC), Concurrency: 8, Runs: 1,
		Sweep: &benchdoc.Sweep{
			Levels: []benchdoc.SweepLevel{
				{Concurrency: 8, Providers: []benchdoc.SweepPoint{point("fast", 100, 800, false), point("<b>gpu</b>", 30, 240, false)}},
				{Concurrency: 16, Providers: []benchdoc.SweepPoint{point("fast", 50, 800, false), point("<b>gpu</b>", 29, 464, true)}},
			},
			Knees:        []benchdoc.Knee{{Name: "fast", Concurrency: &eight}, {Name: "<b>gpu</b>"}},
			SweepVerdict: "fast holds 800 tok/s aggregate at 100 tok/s per user at C=8; <b>gpu</b> still gains at C=16",
			SweepAsked:   []int{8, 16},
		}}
	return Of(b)
}

func TestSweepTableAndCSV(t *testing.T) {
	b := sweepDoc()
	var table bytes.Buffer
	if err := b.Write(&table, "table"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Concurrency sweep (1 race per level; the table above is C=8)",
		" C  provider     ok  per user tok/s  aggregate tok/s    ±  TTFT p50  TTFT p95  E2E p50  knee    flags",
		" 8  fast        8/8             100              800  ±2%     120ms     150ms    900ms  ◀ knee  -",
		"◀ knee",
		"⚑ client_saturated",
		"Sweep: fast holds 800 tok/s aggregate",
		"Knee: the lowest level C whose doubling to 2C gains under 10% aggregate tok/s",
	} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	var out bytes.Buffer
	if err := b.WriteCSV(&out); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(rows) != 5 {
		t.Fatalf("%d rows, %v:\n%s", len(rows), err, out.String())
	}
	if got := strings.Join(rows[0], ","); got != "concurrency,provider,ok,failed,per_user_tps,aggregate_tps,aggregate_min,aggregate_max,ttft_p50_ms,ttft_p95_ms,e2e_p50_ms,knee,flags,simulated" {
		t.Errorf("header %s", got)
	}
	if got := strings.Join(rows[1], ","); got != "8,fast,8,0,100,800,784,816,120,150,900,true,,false" {
		t.Errorf("row %s", got)
	}
}

// The report page draws each sweep: a curve per provider, a dot per
// level labelled with its C, the knee larger, a bent level hollow; a
// provider's name is text, never markup.
func TestSweepChartInHTML(t *testing.T) {
	b := sweepDoc()
	records := []Record{{Bench: *b.Bench}}
	var page bytes.Buffer
	if err := Summarise(records).WriteHTML(&page, records, []string{"sweep.json"}); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, want := range []string{"Concurrency sweep, 2026-12-06 05:00 UTC", ">C=8</text>", ">C=16</text>", `r="6"`, `fill="#fff"`,
		"aggregate tok/s (all users)", "&lt;b&gt;gpu&lt;/b&gt;", "<polyline", "TTFT as users are added (queueing)", "users (C, log scale)"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(html, "<b>gpu") {
		t.Error("a provider's name reached the page as markup")
	}
	// A probe's history of sweeps: its latest is drawn, saying of how many.
	later := *b.Bench
	later.StartedAt = later.StartedAt.Add(time.Hour)
	records = []Record{{Bench: *b.Bench, Probe: "eu"}, {Bench: later, Probe: "eu"}}
	page.Reset()
	if err := Summarise(records).WriteHTML(&page, records, []string{"h.jsonl"}); err != nil {
		t.Fatal(err)
	}
	if html := page.String(); strings.Count(html, "<h2>Concurrency sweep") != 1 || !strings.Contains(html, "06:00 UTC, probe eu (the latest of 2 sweeps)") {
		t.Errorf("a history of two sweeps: want the latest alone, got %d sections", strings.Count(html, "<h2>Concurrency sweep"))
	}
}
