package report

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"tpsrace/benchdoc"
	"tpsrace/probes"
)

// The testdata files were written by `tpsrace watch --history` (probes
// eu-west and us-east; eu-west's first race moved to the day before, to
// show the per-day rows) and `tpsrace bench --format json` (concurrency 1
// and 4), racing the simulator: two healthy providers, a one-event answer
// (no output speed), an HTTP 503 and a connection cut mid-stream.
func testdataRecords(t *testing.T, names ...string) []Record {
	t.Helper()
	var all []Record
	for _, n := range names {
		records, err := ReadRecords(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, records...)
	}
	return all
}

// Two setups (the C=4 bench file beside the C=1 history and bench file):
// two sections, no row mixing them.
func TestOverviewGoldens(t *testing.T) {
	o := Summarise(testdataRecords(t, "history-eu-west.jsonl", "history-us-east.jsonl", "bench-c1.json", "bench-c4.json"))
	for _, format := range []string{"markdown", "csv"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := o.Write(&out, format); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, out.Bytes())
		})
	}
}

func TestCompareGoldens(t *testing.T) {
	// C=1 against C=4: compared only when forced, and labelled so.
	changes, err := Compare(Summarise(testdataRecords(t, "bench-c1.json")), Summarise(testdataRecords(t, "bench-c4.json")), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"markdown", "csv"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := WriteComparison(&out, changes, "bench-c1.json", "bench-c4.json", format); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, out.Bytes())
		})
	}
}

// record is a one-race history line of one provider's runs.
func record(probe string, at time.Time, runs ...Stream) Record {
	return Record{Bench: benchdoc.Bench{Schema: benchdoc.Schema, StartedAt: at, Providers: []Provider{{Name: "p", Model: "m", Streams: runs}}}, Probe: probe}
}

func okRun(ttft, tps, e2e float64) Stream {
	return Stream{OK: true, TTFTms: &ttft, OutputTPS: &tps, E2Ems: e2e}
}

func failedRun(kind string) Stream {
	return Stream{Error: ptr("boom"), ErrorKind: &kind, E2Ems: 5}
}

func TestSummariseGroupsAndDirections(t *testing.T) {
	day1 := time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC)
	day2 := day1.Add(2 * time.Hour)
	interrupted := okRun(1, 1, 1)
	interrupted.Interrupted = true
	o := Summarise([]Record{
		record("eu", day1, okRun(100, 50, 1000), failedRun(probes.KindHTTP)),
		record("eu", day2, okRun(300, 150, 3000), interrupted),
		record("us", day2, okRun(200, 100, 2000), failedRun(probes.KindTimeout), failedRun(probes.KindHTTP)),
	})
	if len(o.Providers) != 1 || len(o.ByProbeDay) != 3 || o.Interrupted != 1 {
		t.Fatalf("%d provider groups, %d probe/day groups, %d interrupted; want 1, 3 (eu twice, us once), 1", len(o.Providers), len(o.ByProbeDay), o.Interrupted)
	}
	g := o.Providers[0]
	if g.Races != 3 || g.OK != 3 || g.Failed != 3 || g.Failures[probes.KindHTTP] != 2 || g.Failures[probes.KindTimeout] != 1 {
		t.Errorf("group %+v: want 3 races, 3 ok, 3 failed (http 2, timeout 1)", g)
	}
	if *g.TTFTms.P50 != 200 || *g.TTFTms.Best != 100 || *g.TTFTms.Worst != 300 {
		t.Errorf("TTFT p50/best/worst %v/%v/%v: want 200, the lowest 100, the highest 300", *g.TTFTms.P50, *g.TTFTms.Best, *g.TTFTms.Worst)
	}
	if *g.OutputTPS.Best != 150 || *g.OutputTPS.Worst != 50 || *g.OutputTPS.P95 != 145 {
		t.Errorf("speed best/worst/p95 %v/%v/%v: want the highest 150, the lowest 50, p95 145", *g.OutputTPS.Best, *g.OutputTPS.Worst, *g.OutputTPS.P95)
	}
	if eu1 := o.ByProbeDay[0]; eu1.Probe != "eu" || eu1.Day != "2026-03-01" || eu1.OK != 1 || eu1.Failed != 1 {
		t.Errorf("first probe/day group %+v", eu1)
	}
}

// A provider that never completed has no figures: "-" in Markdown, blank
// in CSV, never 0; its failures by kind are there.
func TestUndefinedFiguresAreNeverZero(t *testing.T) {
	o := Summarise([]Record{record("", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), failedRun(probes.KindNetwork))})
	var md, csv bytes.Buffer
	o.Write(&md, "markdown")
	o.Write(&csv, "csv")
	if !strings.Contains(md.String(), "| p | m | 1 | 0 | 1 | - | - | - | - | - | - | - | - | - | - | network 1 |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if rows := strings.Split(csv.String(), "\n"); rows[1] != "p,m,,2026-03-01,1,0,1,,,,,,,,,,,,,1,0,0,0,0,0,0,0,,,,,0,0,,chat,false" {
		t.Errorf("csv row %q", rows[1])
	}
	changes, _ := Compare(o, Summarise(nil), true)
	if c := changes[0]; c.A != nil || c.B != nil || c.changeText() != "-" {
		t.Errorf("comparing undefined TTFTs: %+v, change %q; want undefined", c, c.changeText())
	}
}

// Names come from other machines' files: in CSV a formula reads as text,
// and no escape sequence reaches the terminal from Markdown.
func TestHostileNamesAreDefused(t *testing.T) {
	r := record("\x1b]0;owned\x07eu", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), okRun(100, 50, 1000))
	r.Providers[0].Name = "=HYPERLINK(\"http://x\")"
	o := Summarise([]Record{r})
	var md, csv bytes.Buffer
	o.Write(&md, "markdown")
	o.Write(&csv, "csv")
	if strings.ContainsAny(md.String()+csv.String(), "\x1b\x07") {
		t.Errorf("an escape sequence got through:\n%q\n%q", md.String(), csv.String())
	}
	if rows := strings.Split(csv.String(), "\n"); !strings.HasPrefix(rows[1], `"'=HYPERLINK(""http://x"")",m,`) {
		t.Errorf("csv row %q: want the formula as text", rows[1])
	}
}

// Every overview CSV row says whether it is simulated: a spreadsheet keeps
// no note above the table. A row with one simulated race among real ones is
// simulated.
func TestOverviewCSVMarksSimulatedRows(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	sim := record("eu", day, okRun(100, 50, 1000))
	sim.Simulated = true
	o := Summarise([]Record{sim, record("us", day, okRun(200, 100, 2000)), record("eu", day.Add(24*time.Hour), okRun(300, 150, 3000))})
	var out bytes.Buffer
	if err := o.Write(&out, "csv"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if col := len(rows[0]) - 1; rows[0][col] != "simulated" {
		t.Fatalf("last column %q, want simulated", rows[0][col])
	}
	want := map[string]string{"eu 2026-03-01": "true", "us 2026-03-01": "false", "eu 2026-03-02": "false"}
	for _, row := range rows[1:] {
		if got, key := row[len(row)-1], row[2]+" "+row[3]; got != want[key] {
			t.Errorf("%s: simulated %q, want %q", key, got, want[key])
		}
	}
	if len(rows) != 4 {
		t.Errorf("%d rows, want a header and 3", len(rows))
	}
}

// --compare says which side's figures came from simulated races: in
// Markdown above its tables, in CSV on every row.
func TestComparisonMarksSimulatedSides(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	sim := record("eu", day, okRun(100, 50, 1000))
	sim.Simulated = true
	a, b := Summarise([]Record{record("eu", day, okRun(200, 100, 2000))}), Summarise([]Record{sim})
	changes, err := Compare(a, b, false)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := WriteComparison(&md, changes, "real.json", "sim.json", "markdown"); err != nil {
		t.Fatal(err)
	}
	if want := "Includes SIMULATED providers (tpsrace's simulator) in B: sim.json: not real measurements of any provider.\n\n"; !strings.HasPrefix(md.String(), want) {
		t.Errorf("markdown does not start with %q:\n%s", want, md.String())
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, changes, "real.json", "sim.json", "csv"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n := len(rows[0])
	if rows[0][n-2] != "simulated_a" || rows[0][n-1] != "simulated_b" {
		t.Fatalf("last columns %q, want simulated_a, simulated_b", rows[0][n-2:])
	}
	for _, row := range rows[1:] {
		if row[n-2] != "false" || row[n-1] != "true" {
			t.Errorf("row %q: simulated %s, %s; want false, true", row, row[n-2], row[n-1])
		}
	}
	var real bytes.Buffer
	if err := WriteComparison(&real, changes[:0], "a", "b", "markdown"); err != nil || strings.Contains(real.String(), "SIMULATED") {
		t.Errorf("no simulated side, yet %q", real.String())
	}
}
