package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/report"
	"tpsrace/tokens"
	"tpsrace/ui/live"
)

// sameInFlight: at a random moment of the race, the dashboard's figures
// are metrics.SummaryOf of the streams so far, built here from what had
// arrived by then (metrics.StreamSoFar for a stream still running,
// metrics.StreamOf for one that had ended): one rule, mid-race too.
func sameInFlight(t *testing.T, run int, cfg *config.Config, conc, finishAt int, race [][]probes.Result, rng *rand.Rand) {
	t.Helper()
	var last time.Duration
	for _, streams := range race {
		for _, r := range streams {
			last = max(last, r.End)
		}
	}
	at := time.Duration(rng.Int64N(int64(last) + 1))
	promptTokens := tokens.Count(cfg.Prompt)
	for i, p := range cfg.Providers {
		lp := live.NewLane(i, p, conc, promptTokens)
		var streams []metrics.Stream
		for s := range race[i] {
			r := &race[i][s]
			var arrived probes.Events
			for e := range r.Events.Values() {
				if e.At <= at {
					arrived.Append(e)
				}
			}
			lp.Record(probes.Update{Provider: i, Stream: s, Events: arrived})
			if r.End <= at {
				lp.Record(probes.Update{Provider: i, Stream: s, Done: r})
				streams = append(streams, metrics.StreamOf(r, promptTokens, finishAt).JudgeSLO(p.SLO))
			} else {
				streams = append(streams, metrics.StreamSoFar(arrived, finishAt).JudgeSLO(p.SLO))
			}
		}
		f := lp.Snapshot(at)
		if finishAt > 0 {
			lp.RaceTo(&f, finishAt)
		}
		want := metrics.SummaryOf(streams, finishAt)
		for _, c := range []struct {
			name      string
			dash, run any
		}{
			{"TTFT", [2]any{f.HasTTFT, f.TTFT}, [2]any{want.TTFT.Has(), want.TTFT.P50}},
			{"TTFA", [2]any{f.HasTTFA, f.TTFA}, [2]any{want.TTFA.Has(), want.TTFA.P50}},
			{"speed", [2]any{f.HasSpeed, f.Speed}, [2]any{want.Speed.Has(), want.Speed.P50}},
			{"tokens", [3]int{f.Tokens, f.O200kTokens, f.UserTokens}, [3]int{want.Tokens, want.O200kTokens, want.EventTokens}},
			{"failed", f.Failed, want.Failed},
			{"cost", [2]any{f.HasCost, f.CostUSD}, [2]any{want.CostUSD.Has(), want.CostUSD.P50}},
			{"goodput", [2]int{f.SLOMet, f.SLOStreams}, [2]int{want.Goodput.Met, want.Goodput.Streams}},
			{"time to N", [2]any{f.HasTimeToN, f.TimeToN}, [2]any{want.TimeToN.Has(), want.TimeToN.P50}},
			{"aggregate", [2]any{f.HasAggregateTPS, f.AggregateTPS}, [2]any{want.HasAggregateTPS, want.AggregateTPS}},
		} {
			if c.dash != c.run {
				t.Errorf("run %d %s at %v: the dashboard's %s %v, SummaryOf of the streams so far %v", run, p.Name, at, c.name, c.dash, c.run)
			}
		}
	}
}

// sameGoodput: the dashboard's goodput is bench's, and bench's table
// writes it in the SLO's column as the description reads it.
func sameGoodput(t *testing.T, run int, b *benchdoc.Bench, figs []live.Snapshot) {
	t.Helper()
	var table bytes.Buffer
	if err := report.Of(b).Write(&table, "table"); err != nil {
		t.Fatal(err)
	}
	slo := metrics.SLOFigures(b.Concurrency)[0]
	for i, f := range figs {
		g := b.Providers[i].Summary.Goodput
		met, streams := 0, 0
		if g != nil {
			met, streams = g.Met, g.Streams
		}
		if f.SLOMet != met || f.SLOStreams != streams {
			t.Errorf("run %d %s: the dashboard's goodput %d/%d, bench's %d/%d", run, b.Providers[i].Name, f.SLOMet, f.SLOStreams, met, streams)
		}
		cell := slo.Text(metrics.Reading{Value: float64(met), Of: streams, OK: streams > 0})
		if row := rowOf(table.String(), b.Providers[i].Name); b.UnderSLO() && !strings.Contains(row+" ", " "+cell+" ") {
			t.Errorf("run %d: the table's row %q lacks the SLO's %q", run, row, cell)
		}
	}
}

// sameReport: `report`'s overview of bench's JSON has bench's figures,
// at the JSON's precision (ms to the µs).
func sameReport(t *testing.T, run int, b *benchdoc.Bench) {
	t.Helper()
	var doc bytes.Buffer
	if err := report.Of(b).WriteJSON(&doc); err != nil {
		t.Fatal(err)
	}
	var back benchdoc.Record
	if err := json.Unmarshal(doc.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	groups := report.Summarise([]report.Record{back}).Providers
	for _, p := range b.Providers {
		var g report.Group
		for _, x := range groups {
			if x.Provider == p.Name {
				g = x
			}
		}
		s := p.Summary
		for _, c := range []struct {
			name       string
			bench, got *float64
		}{
			{"TTFT p50", s.TTFTms.P50, g.TTFTms.P50}, {"TTFT p95", s.TTFTms.P95, g.TTFTms.P95},
			{"speed p50", s.OutputTPS.P50, g.OutputTPS.P50}, {"E2E p50", s.E2Ems.P50, g.E2Ems.P50},
		} {
			if (c.bench == nil) != (c.got == nil) || c.bench != nil && math.Abs(*c.bench-*c.got) > 0.01 {
				t.Errorf("run %d %s %s: report %s, bench %s", run, p.Name, c.name, str(c.got), str(c.bench))
			}
		}
		if g.OK != s.OK || g.Failed != s.Failed {
			t.Errorf("run %d %s: report %d ok %d failed, bench %d and %d", run, p.Name, g.OK, g.Failed, s.OK, s.Failed)
		}
	}
}

func str(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}
