package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/probes"
	"tpsrace/report"
	"tpsrace/watch"
)

// A sweep tells one story: random sweeps (random providers, levels,
// races per level, failures) give each level's figures in the sweep JSON
// as a bench at that level alone gives them (per user = its output speed
// p50, aggregate = its aggregate, TTFT and E2E p50), and the same again in
// the sweep's CSV and in watch's per-level gauges.
func TestEveryViewTellsTheSameSweep(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 34))
		cfg, _, _, _ := randomRaces(rng)
		asked := []int{1, 2, 4, 8}[:2+rng.IntN(3)]
		runs := 1 + rng.IntN(2)
		var levels []benchdoc.Level
		for _, c := range asked {
			level := benchdoc.Level{Concurrency: c}
			for run := range runs {
				var race [][]probes.Result
				for _, p := range cfg.Providers {
					var streams []probes.Result
					for s := range c {
						r := randomStream(rng, p, false)
						r.Provider, r.Model, r.Stream, r.Release = p.Name, p.Model, s, time.Date(2026, 12, 6, 5, c, run, 0, time.UTC)
						streams = append(streams, r)
					}
					race = append(race, streams)
				}
				level.Races = append(level.Races, race)
			}
			levels = append(levels, level)
		}
		t.Run(fmt.Sprintf("seed=%d/levels=%v/runs=%d", seed, asked, runs), func(t *testing.T) {
			b := benchdoc.BuildSweep(benchdoc.SweepInput{Input: benchdoc.Input{Config: cfg}, Asked: asked, Levels: levels})
			rows := sweepCSV(t, b)
			gauges := sweepGauges(t, b)
			for l, level := range levels {
				alone := benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: level.Concurrency, Races: level.Races})
				for i, p := range alone.Providers {
					got := b.Levels[l].Providers[i]
					want := []*float64{p.Summary.OutputTPS.P50, p.Summary.AggregateTPS, p.Summary.TTFTms.P50, p.Summary.E2Ems.P50}
					for k, v := range []*float64{got.PerUserTPS, got.AggregateTPS, got.TTFTms.P50, got.E2Ems.P50} {
						if jsonNum(v) != jsonNum(want[k]) {
							t.Errorf("C=%d %s: figure %d is %s in the sweep, %s in a bench at that level", level.Concurrency, p.Name, k, jsonNum(v), jsonNum(want[k]))
						}
					}
					key := strconv.Itoa(level.Concurrency) + " " + p.Name
					if row := rows[key]; row["per_user_tps"] != csvStr(got.PerUserTPS) || row["aggregate_tps"] != csvStr(got.AggregateTPS) {
						t.Errorf("%s: csv %v, json %s %s", key, row, jsonNum(got.PerUserTPS), jsonNum(got.AggregateTPS))
					}
					if g, ok := gauges["tpsrace_sweep_aggregate_tokens_per_second "+key]; ok != (got.AggregateTPS != nil) || ok && g != *got.AggregateTPS {
						t.Errorf("%s: watch's aggregate %v (set %v), json %s", key, g, ok, jsonNum(got.AggregateTPS))
					}
				}
			}
		})
	}
}

func jsonNum(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func csvStr(v *float64) string {
	if v == nil {
		return ""
	}
	return jsonNum(v)
}

// sweepCSV is b's sweep CSV rows by "concurrency provider", by column.
func sweepCSV(t *testing.T, b *benchdoc.Bench) map[string]map[string]string {
	t.Helper()
	var out bytes.Buffer
	if err := report.Of(b).WriteCSV(&out); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string]string{}
	for _, r := range records[1:] {
		row := map[string]string{}
		for i, h := range records[0] {
			row[h] = r[i]
		}
		rows[row["concurrency"]+" "+row["provider"]] = row
	}
	return rows
}

// sweepGauges are watch's tpsrace_sweep_* series of b, by "name concurrency provider".
func sweepGauges(t *testing.T, b *benchdoc.Bench) map[string]float64 {
	t.Helper()
	exp := watch.NewExporter(nil)
	exp.ObserveSweep("probe", b)
	rec := httptest.NewRecorder()
	exp.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	series := map[string]float64{}
	for line := range strings.Lines(rec.Body.String()) {
		name, rest, ok := strings.Cut(line, "{")
		if !ok || !strings.HasPrefix(name, "tpsrace_sweep_") || name == "tpsrace_sweep_knee_concurrency" {
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		label := func(key string) string {
			v := labels[strings.Index(labels, key+`="`)+len(key)+2:]
			return v[:strings.IndexByte(v, '"')]
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			t.Fatal(err)
		}
		series[name+" "+label("concurrency")+" "+label("provider")] = v
	}
	return series
}
