package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/report"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/tokens"
	"tpsrace/ui/live"
	"tpsrace/watch"
	"tpsrace/workload"
)

// Every workload tells one story too: real runs against the simulator
// (two providers, one under an SLO, two runs, raced step by step as bench,
// watch and the dashboard race them) give the same workload figures, every
// one its description names, on the dashboard (ui/live's Run over the
// run's races), in bench's JSON, table and read back, in `report`, in
// watch's gauges of the run, and after a recording's round trip (replay
// --bench); once a run's last race has ended, the leaderboard ranks and
// decides as bench does for its races.
func TestEveryViewTellsTheSameWorkloadStory(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	for _, tc := range []struct {
		name   string
		sizes  []int
		models [2]string
	}{
		{workload.ToolCall, nil, [2]string{"sim:ttft=5ms,tps=3000,tool=split", "sim:ttft=9ms,tps=1000,tool=whole"}},
		{workload.JSON, nil, [2]string{"sim:ttft=5ms,tps=3000", "sim:ttft=9ms,tps=1000"}},
		{workload.LongContext, []int{1000, 3000}, [2]string{"sim:ttft=5ms,tps=3000,prefill=40000", "sim:ttft=9ms,tps=3000,prefill=20000"}},
		{workload.CachedPrefix, []int{2000}, [2]string{"sim:ttft=5ms,tps=3000,prefill=40000,prefixcache=1", "sim:ttft=9ms,tps=3000,prefill=40000"}},
		{workload.MultiTurn, nil, [2]string{"sim:ttft=5ms,tps=3000,tokens=8", "sim:ttft=9ms,tps=1000,tokens=8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, _ := workload.Named(tc.name)
			if tc.sizes != nil {
				w.InputTokens = tc.sizes
			}
			cfg := &config.Config{Prompt: "Explain caches.", MaxTokens: 8, Workload: w}
			for i, m := range tc.models {
				cfg.Providers = append(cfg.Providers, config.Provider{Name: "p" + strconv.Itoa(i), Model: m, BaseURL: srv.URL(), Timeout: config.DefaultTimeouts})
				if i == 0 { // an SLO on one provider: its goodput in every view
					cfg.Providers[i].SLO = config.SLO{TTFT: time.Second}
				}
			}
			const runs = 2
			races := raceWorkload(t, cfg, runs)
			perRun := len(w.Steps())
			// With --finish-at too: the workload's own figure still decides.
			for _, finishAt := range []int{0, 5} {
				for run := range runs {
					runRaces := races[run*perRun : (run+1)*perRun]
					one := benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: runRaces, FinishAt: finishAt})
					dash, figs := dashboardRun(cfg, runRaces, finishAt)
					if m := dash[0].Ranked.Metric(); one.Verdict.Metric != m || m == metrics.VerdictMetric || m == metrics.FinishMetric {
						t.Errorf("run %d, --finish-at %d: bench's verdict compares %s, the dashboard %s", run, finishAt, one.Verdict.Metric, m)
					}
					sameWorkloadFigures(t, run, one, dash)
					_, said := sameRankingAndVerdict(t, run, cfg, one, figs) // once the run's last race has ended
					sameFlags(t, run, one, said)
					sameDescribedFigures(t, run, one, dash)
				}
			}
			sameReplay(t, cfg, 1, 0, races, benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: races}))
		})
	}
}

// sameFlags: the dashboard's verdict carries bench's referee flags over
// the run's races (its steps', not only the last race's), and no others;
// bench's summary flags each provider as its verdict does (cached-prefix's
// warm cache hit is what the workload measures, not a flag), in how many
// runs, not races.
func sameFlags(t *testing.T, run int, b *benchdoc.Bench, said string) {
	t.Helper()
	_, flagged, _ := strings.Cut(said, " · ⚑ ")
	if flagged != b.Verdict.FlaggedText {
		t.Errorf("run %d: the dashboard's verdict is flagged %q, bench's %q", run, flagged, b.Verdict.FlaggedText)
	}
	for _, p := range b.Providers {
		want := slices.Sorted(maps.Keys(b.Verdict.Flagged[p.Name]))
		if got := slices.Sorted(slices.Values(p.Summary.Flags)); !slices.Equal(got, want) {
			t.Errorf("run %d: %s's summary is flagged %v, its verdict %v", run, p.Name, got, want)
		}
		for _, f := range p.Summary.Flags {
			if ev := p.Summary.Evidence[f]; !strings.HasPrefix(ev, strconv.Itoa(b.Verdict.Flagged[p.Name][f])+"/1 runs: ") {
				t.Errorf("run %d: %s %s evidence %q, want it counted in runs (1)", run, p.Name, f, ev)
			}
		}
	}
	if steps := len(b.Providers[0].Streams); b.RacesPerRun != steps && !(steps == 1 && b.RacesPerRun == 0) {
		t.Errorf("run %d: races_per_run %d for %d races of one run", run, b.RacesPerRun, steps)
	}
}

// raceWorkload races cfg's workload runs times, step by step, as bench does.
func raceWorkload(t *testing.T, cfg *config.Config, runs int) [][][]probes.Result {
	t.Helper()
	seq, conv := cfg.Workload.Sequence(), &probes.Conversation{}
	var races [][][]probes.Result
	for range runs * seq.PerRun() {
		race := probes.Race{Providers: cfg.Providers, Concurrency: 1,
			Request: probes.Request{Prompt: cfg.Prompt, MaxTokens: cfg.MaxTokens, Tool: cfg.Workload.Tool, Answer: cfg.Workload.Answer}}
		step, nonce := seq.Next(time.Now())
		race.Request.InputTokens, race.Request.Nonce = step.InputTokens, nonce
		race.Request = conv.Turn(race.Request, step.FollowUps)
		results := race.Run(context.Background(), nil)
		conv.Heard(results)
		for i, streams := range results {
			for _, r := range streams {
				if !r.OK() {
					t.Fatalf("%s: %v", cfg.Providers[i].Name, r.Err)
				}
			}
		}
		races = append(races, results)
	}
	return races
}

// dashboardRun is each provider's figures over one run as the dashboard
// settles them: its races fed one after the other into ui/live's Run; and
// the leaderboard's figures once the run's last race has ended.
func dashboardRun(cfg *config.Config, races [][][]probes.Result, finishAt int) ([]*live.WorkloadRun, []live.Snapshot) {
	var tool, answer *workload.Schema
	if cfg.Workload.Tool != nil {
		tool, _ = cfg.Workload.Tool.Compile()
	}
	if cfg.Workload.Answer != nil {
		answer, _ = cfg.Workload.Answer.Compile()
	}
	run := live.NewRun(cfg.Workload)
	seq := cfg.Workload.Sequence()
	figs := make([]live.Snapshot, len(cfg.Providers))
	for _, race := range races {
		step, _ := seq.Next(time.Now())
		run.Start(step, cfg.Prompt, 1, cfg.Providers, finishAt)
		var providers []*live.Lane
		for i, p := range cfg.Providers {
			lp := live.NewLane(i, p, 1, tokens.Count(cfg.Prompt))
			if tool != nil {
				lp.OfferTool(tool)
			}
			if answer != nil {
				lp.AskJSON(answer)
			}
			var end time.Duration
			for s := range race[i] {
				lp.Record(probes.Update{Provider: i, Stream: s, Done: &race[i][s]})
				end = max(end, race[i][s].End)
			}
			providers, figs[i] = append(providers, lp), lp.Snapshot(end)
			if finishAt > 0 {
				lp.RaceTo(&figs[i], finishAt)
			}
		}
		run.Finish(providers, race)
	}
	run.Apply(figs)
	out := make([]*live.WorkloadRun, len(figs))
	for i, f := range figs {
		out[i] = f.Workload
	}
	return out, figs
}

// sameWorkloadFigures: bench's document of one run has the dashboard's
// figures of that run: its rank order and the per-turn and per-size figures.
func sameWorkloadFigures(t *testing.T, run int, b *benchdoc.Bench, dash []*live.WorkloadRun) {
	t.Helper()
	ranked := make([]metrics.Summary, len(dash))
	for i, w := range dash {
		ranked[i] = w.Ranked
	}
	for rank, i := range metrics.Order(ranked) {
		if b.Providers[i].Rank != rank+1 {
			t.Errorf("run %d: %s ranks %d in bench, %d on the dashboard", run, b.Providers[i].Name, b.Providers[i].Rank, rank+1)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for i, w := range dash {
		s := b.Providers[i].Summary
		if len(s.Turns) != len(w.ByTurn) || len(s.TTFTByInput) != len(w.BySize) {
			t.Fatalf("run %d %s: bench has %d turns and %d sizes, the dashboard %d and %d", run, b.Providers[i].Name, len(s.Turns), len(s.TTFTByInput), len(w.ByTurn), len(w.BySize))
		}
		for k, turn := range w.ByTurn {
			if got := s.Turns[k]; *got.TTFTms.P50 != ms(turn.TTFT.P50) || *got.InputTokens != turn.PromptTokens.P50 {
				t.Errorf("run %d %s turn %d: bench %+v, dashboard TTFT %v input %v", run, b.Providers[i].Name, k+1, got, turn.TTFT.P50, turn.PromptTokens.P50)
			}
		}
		for k, size := range w.BySize {
			if got := s.TTFTByInput[k]; got.InputTokens != size.InputTokens || *got.TTFTms.P50 != ms(size.TTFT.P50) {
				t.Errorf("run %d %s size %d: bench %+v, dashboard %+v", run, b.Providers[i].Name, k, got, size)
			}
		}
	}
}

// sameDescribedFigures: every figure the workload's description (and the
// SLO's) names reads the same in every view of one run: the dashboard's
// (ui/live's Run), bench's document and its table, the document read back
// from its JSON (its streams aggregated again), `report`'s overview of
// that JSON, and watch's gauge. Read-back values are at the JSON's
// precision (jsonPrecision).
func sameDescribedFigures(t *testing.T, run int, b *benchdoc.Bench, dash []*live.WorkloadRun) {
	t.Helper()
	var doc, table bytes.Buffer
	if err := report.Of(b).WriteJSON(&doc); err != nil {
		t.Fatal(err)
	}
	if err := report.Of(b).Write(&table, "table"); err != nil {
		t.Fatal(err)
	}
	var back benchdoc.Record
	if err := json.Unmarshal(doc.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	overview := report.Summarise([]report.Record{back})
	exp := watch.NewExporter(nil)
	exp.ObserveRun("probe", b)
	gauges := lastGauges(t, exp)
	figs := metrics.FiguresOf(b.WorkloadOf(), b.UnderSLO(), b.Concurrency)
	if len(figs) == 0 {
		t.Fatalf("run %d: the workload describes no figure", run)
	}
	for i, w := range dash {
		name := b.Providers[i].Name
		g := slices.IndexFunc(overview.Providers, func(g report.Group) bool { return g.Provider == name })
		for _, f := range figs {
			want := f.Of(w.WorkloadRuns)
			views := map[string]metrics.Reading{"bench": f.Of(b.Figures()[i]), "JSON read back": f.Of(back.Figures()[i]),
				"report": f.Of(overview.Providers[g].Figures)}
			for view, got := range views {
				if got.OK != want.OK || got.Why != want.Why || math.Abs(got.Value-want.Value) > jsonPrecision(f.Unit, want.Value) || got.Of != want.Of {
					t.Errorf("run %d %s %s: %s %+v, the dashboard %+v", run, name, f.Header, view, got, want)
				}
			}
			if row := rowOf(table.String(), name); !strings.Contains(row+" ", " "+f.Text(want)+" ") {
				t.Errorf("run %d %s: the table's row %q lacks %s %q", run, name, row, f.Header, f.Text(want))
			}
			v, ok := f.GaugeValue(want)
			if got, set := gauges[f.Gauge+" "+name]; f.Gauge != "" && (set != ok || ok && got != v) {
				t.Errorf("run %d %s: watch's %s %v (set %v), the dashboard's %v (defined %v)", run, name, f.Gauge, got, set, v, ok)
			}
		}
	}
}

// jsonPrecision is how far a figure computed again from the JSON's
// streams may be from the one computed from the recorded events: times
// are kept to the µs (a median interpolates, a conversation adds its
// turns': 10 µs), a share to 0.001, the rest to a part in 10³.
func jsonPrecision(u metrics.Unit, v float64) float64 {
	switch u {
	case metrics.Seconds:
		return 1e-5
	case metrics.Share:
		return 1e-3
	}
	return 1e-3 * math.Abs(v)
}

// rowOf is provider name's row of a table: the line whose second field is it.
func rowOf(table, name string) string {
	for line := range strings.Lines(table) {
		if f := strings.Fields(line); len(f) > 1 && f[1] == name {
			return strings.TrimSuffix(line, "\n")
		}
	}
	return ""
}
