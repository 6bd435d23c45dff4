package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/recording"
	"tpsrace/report"
	"tpsrace/tokens"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/live"
	"tpsrace/watch"
)

// One race tells one story: random races (providers × streams × schedules,
// failures before and after the first token, answers that stop short, C = 1
// and C > 1, with and without --finish-at, under an SLO or not, one host's
// race or a merged one, one run and several) give the same figures, goodput, ranking and verdict on the
// dashboard (ui/live's figures settled and at a random moment mid-race,
// the leaderboard's order and verdict), in bench's JSON and table, in
// `report`'s overview of the JSON, after a recording's round trip (replay
// --bench), and in watch's Prometheus series. The races are built
// directly, so every case is reproducible from its seed.
func TestEveryViewTellsTheSameStory(t *testing.T) {
	cases := 150
	if testing.Short() {
		cases = 30
	}
	seen := map[string]int{} // what the cases covered: each must occur
	for seed := range uint64(cases) {
		rng := rand.New(rand.NewPCG(seed, 2026))
		cfg, conc, finishAt, races := randomRaces(rng)
		t.Run(fmt.Sprintf("seed=%d/C=%d/runs=%d/finish=%d", seed, conc, len(races), finishAt), func(t *testing.T) {
			in := benchdoc.Input{Config: cfg, Concurrency: conc, Races: races, FinishAt: finishAt}
			b := benchdoc.Build(in)
			contenders := b.Contenders()
			for run, race := range races {
				figs := dashboard(cfg, conc, finishAt, race)
				one := benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: conc, Races: [][][]probes.Result{race}, FinishAt: finishAt})
				sameFigures(t, run, one, figs)
				sameVerdict(t, run, cfg, one, figs)
				sameWatch(t, run, cfg, race, figs, one)
				sameGoodput(t, run, one, figs)
				sameReport(t, run, one)
				sameInFlight(t, run, cfg, conc, finishAt, race, rng)
				seen["a flagged verdict"] += b2i(one.Verdict.FlaggedText != "")
				seen["a race of reasoning models"] += b2i(one.Verdict.Metric == metrics.AnswerMetric)
				for _, f := range figs {
					seen["C>1"] += min(f.Streams-1, 1)
					seen["some stream failed"] += min(f.Failed, 1)
					seen["every stream failed"] += b2i(f.Status == live.Failed)
					seen["rate-limited"] += b2i(f.RateLimited)
					seen["stopped short"] += b2i(f.StoppedShort())
					seen["reached N"] += b2i(f.HasTimeToN)
					seen["several runs"] += b2i(len(races) > 1)
					seen["an SLO"] += min(f.SLOStreams, 1)
					seen["a merged race"] += b2i(strings.Contains(cfg.Providers[0].Name, "@"))
					seen["hidden reasoning"] += b2i(f.Thinking.HiddenReasoningTokens > 0)
				}
				for i, f := range figs { // --heats and bench --runs: each run's figure, as the dashboard settled it
					if got, want := contenders[i].Speeds[run], rate(f, b.Verdict.Metric); !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
						t.Errorf("run %d %s: the verdict's rate %v, the dashboard's %v", run, cfg.Providers[i].Name, got, want)
					}
				}
			}
			sameReplay(t, cfg, conc, finishAt, races, b)
		})
	}
	for _, what := range []string{"C>1", "some stream failed", "every stream failed", "rate-limited", "stopped short", "reached N", "several runs",
		"a race of reasoning models", "hidden reasoning", "an SLO", "a merged race"} {
		if seen[what] == 0 {
			t.Errorf("no case had %s: the generator no longer covers it", what)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// randomRaces is a random setup and its races: [run][provider][stream].
func randomRaces(rng *rand.Rand) (*config.Config, int, int, [][][]probes.Result) {
	cfg := &config.Config{Prompt: "Explain caches.", MaxTokens: 100}
	merged := rng.IntN(4) == 0 // a merged race: one provider's lanes on several hosts, released a few ms apart
	for i := range 2 + rng.IntN(3) {
		p := config.Provider{Name: "p" + strconv.Itoa(i), Model: "m" + strconv.Itoa(i), BaseURL: "http://127.0.0.1:1/v1"}
		if merged {
			p.Name, p.Model = "p@host"+strconv.Itoa(i), "m"
		}
		if rng.IntN(2) == 0 {
			p.Price = &config.Price{InputPerMTok: 0.5, OutputPerMTok: 1.5}
		}
		if rng.IntN(3) == 0 {
			p.SLO = config.SLO{TTFT: 500 * time.Millisecond, OutputTPS: []float64{0, 60}[rng.IntN(2)]}
		}
		cfg.Providers = append(cfg.Providers, p)
	}
	conc := []int{1, 1, 2, 3, 4}[rng.IntN(5)]
	finishAt := 0
	if rng.IntN(2) == 0 {
		finishAt = 5 + rng.IntN(30)
	}
	runs := 1 + rng.IntN(3)
	// A model thinks or does not, whatever the run: none, some or all of
	// the providers do.
	thinks := make([]bool, len(cfg.Providers))
	mode := rng.IntN(3)
	for i := range thinks {
		thinks[i] = mode == 2 || mode == 1 && rng.IntN(2) == 0
	}
	start := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	races := make([][][]probes.Result, runs)
	for run := range races {
		release := start.Add(time.Duration(run) * time.Minute)
		for i, p := range cfg.Providers {
			var streams []probes.Result
			for s := range conc {
				r := randomStream(rng, p, thinks[i])
				r.Provider, r.Model, r.Stream, r.Release = p.Name, p.Model, s, release
				if merged {
					r.Release = release.Add(time.Duration(i*3) * time.Millisecond)
				}
				streams = append(streams, r)
			}
			races[run] = append(races[run], streams)
		}
	}
	return cfg, conc, finishAt, races
}

// randomStream is one stream: completed, refused before any token (404,
// 429, 503), cut after some tokens, or a short answer. A model that thinks
// streams its reasoning first, and with usage may report more of it,
// hidden.
func randomStream(rng *rand.Rand, p config.Provider, thinks bool) probes.Result {
	r := probes.Result{Price: p.Price}
	kind := rng.IntN(10)
	if kind == 0 { // refused
		r.Err = &probes.Failure{Kind: probes.KindHTTP, Status: []int{404, 429, 503}[rng.IntN(3)], Message: "no"}
		r.End = time.Duration(5+rng.IntN(50)) * time.Millisecond
		return r
	}
	events := 1 + rng.IntN(40)
	if kind == 1 { // short
		events = 1 + rng.IntN(4)
	}
	at := time.Duration(20+rng.IntN(900)) * time.Millisecond
	sum := 0
	for i := range events {
		e := probes.Event{At: at, Tokens: 1 + rng.IntN(3)}
		if i == 0 && thinks {
			e.Reasoning = " think"
		} else {
			e.Content = " w" + strconv.Itoa(i)
		}
		r.Events.Append(e)
		sum += e.Tokens
		at += time.Duration(rng.IntN(30)) * time.Millisecond // 0: two events at one instant
	}
	r.End = at + time.Duration(rng.IntN(10))*time.Millisecond
	if kind == 2 { // cut after its tokens
		r.Err = &probes.Failure{Kind: probes.KindNetwork, Message: "connection reset by peer"}
		return r
	}
	r.FinishReason = "stop"
	if rng.IntN(3) > 0 {
		r.Usage = &probes.Usage{PromptTokens: 12, CompletionTokens: sum + rng.IntN(3), TotalTokens: 12 + sum}
		if thinks && rng.IntN(2) == 0 {
			hidden := 20 + rng.IntN(200)
			r.Usage.CompletionTokens, r.Usage.ReasoningTokens, r.Usage.TotalTokens = r.Usage.CompletionTokens+hidden, 1+hidden, r.Usage.TotalTokens+hidden
		}
	}
	return r
}

// dashboard is every provider's settled figures, fed one update at a time
// as a race feeds the lanes.
func dashboard(cfg *config.Config, conc, finishAt int, race [][]probes.Result) []live.Snapshot {
	promptTokens := tokens.Count(cfg.Prompt)
	ref := metrics.RefereeOf(cfg.Providers, cfg.Workload, [][][]probes.Result{race})
	figs := make([]live.Snapshot, len(cfg.Providers))
	for i, p := range cfg.Providers {
		lp := live.NewLane(i, p, conc, promptTokens)
		var end time.Duration
		for s := range race[i] {
			lp.Record(probes.Update{Provider: i, Stream: s, Events: race[i][s].Events})
		}
		for s := range race[i] {
			lp.Record(probes.Update{Provider: i, Stream: s, Done: &race[i][s]})
			end = max(end, race[i][s].End)
		}
		figs[i] = lp.Snapshot(end)
		figs[i].Referee(ref, 0, i) // as the session referees a finished race
		if finishAt > 0 {
			lp.RaceTo(&figs[i], finishAt)
		}
	}
	return figs
}

// rate is what the dashboard's verdict compares of f under metric, bench's.
func rate(f live.Snapshot, metric string) float64 {
	switch {
	case f.Status == live.Failed:
	case metric == metrics.AnswerMetric && f.HasTTFA:
		return 1 / f.TTFA.Seconds()
	case f.FinishAt > 0 && f.HasTimeToN:
		return float64(f.FinishAt) / f.TimeToN.Seconds()
	case f.FinishAt == 0 && f.HasSpeed:
		return f.Speed
	}
	return math.NaN()
}

// sameFigures: bench's JSON summary of one run is the dashboard's settled
// figures, in the JSON's units and precision.
func sameFigures(t *testing.T, run int, b *benchdoc.Bench, figs []live.Snapshot) {
	t.Helper()
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	tps := func(v float64) float64 { return math.Round(v*100) / 100 }
	opt := func(v *float64) string {
		if v == nil {
			return "null"
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for i, f := range figs {
		if !f.Settled {
			t.Fatalf("run %d provider %d: not settled", run, i)
		}
		s := b.Providers[i].Summary
		defined := func(has bool, v float64) string {
			if !has {
				return "null"
			}
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
		usd := func(v float64) float64 { r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 8, 64), 64); return r }
		for _, c := range []struct{ name, bench, dash string }{
			{"ok", strconv.Itoa(s.OK), strconv.Itoa(f.Streams - f.Failed)},
			{"failed", strconv.Itoa(s.Failed), strconv.Itoa(f.Failed)},
			{"ttft p50", opt(s.TTFTms.P50), defined(f.HasTTFT, ms(f.TTFT))},
			{"speed p50", opt(s.OutputTPS.P50), defined(f.HasSpeed, tps(f.Speed))},
			{"aggregate", opt(s.AggregateTPS), defined(f.HasAggregateTPS, tps(f.AggregateTPS))},
			{"cost", opt(s.CostUSD), defined(f.HasCost, usd(f.CostUSD))},
			{"time to N", opt(s.TimeToNms.P50), defined(f.HasTimeToN, ms(f.TimeToN))},
			{"stopped short", strconv.FormatBool(s.StoppedShort), strconv.FormatBool(f.StoppedShort())},
			{"tokens", strconv.Itoa(s.Tokens), strconv.Itoa(f.Tokens)},
			{"o200k", strconv.Itoa(s.O200kTokens), strconv.Itoa(f.O200kTokens)},
			{"token source", s.TokenSource, f.TokenSource},
			{"event tokens", strconv.Itoa(s.EventTokens), strconv.Itoa(f.UserTokens)},
		} {
			if c.bench != c.dash {
				t.Errorf("run %d %s %s: bench %s, dashboard %s", run, b.Providers[i].Name, c.name, c.bench, c.dash)
			}
		}
	}
}

// sameRankingAndVerdict: the leaderboard ranks as bench does, and the
// dashboard's verdict line is bench's verdict, then what the race adds for
// the audience (" · stopped short of N tokens: …", " · 2 failed", " · ⚑ …").
// It returns the providers' names and the dashboard's line.
func sameRankingAndVerdict(t *testing.T, run int, cfg *config.Config, b *benchdoc.Bench, figs []live.Snapshot) (names []string, dash string) {
	t.Helper()
	names = make([]string, len(cfg.Providers))
	for i, p := range cfg.Providers {
		names[i] = p.Name
	}
	if got, want := fmt.Sprint(leaderboard.Order(figs)), fmt.Sprint(b.RankedIndexes()); got != want {
		t.Errorf("run %d: the leaderboard ranks %s, bench %s", run, got, want)
	}
	dash = leaderboard.Verdict(names, figs)
	if rest, ok := strings.CutPrefix(dash, b.Verdict.Text); !ok || rest != "" && !strings.HasPrefix(rest, " · ") {
		t.Errorf("run %d: the dashboard says %q, bench %q", run, dash, b.Verdict.Text)
	}
	return names, dash
}

// sameVerdict: the leaderboard ranks and decides as bench does, and bench's
// table says the same verdict.
func sameVerdict(t *testing.T, run int, cfg *config.Config, b *benchdoc.Bench, figs []live.Snapshot) {
	t.Helper()
	names, dash := sameRankingAndVerdict(t, run, cfg, b, figs)
	if f := b.Verdict.FlaggedText; f != "" && !strings.HasSuffix(dash, " · ⚑ "+f) {
		t.Errorf("run %d: the dashboard says %q, without bench's referee: %q", run, dash, f)
	}
	var table bytes.Buffer
	if err := report.Of(b).Write(&table, "table"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "Verdict: "+b.Verdict.Text+"\n") {
		t.Errorf("run %d: bench's table lacks the verdict %q:\n%s", run, b.Verdict.Text, table.String())
	}
	for i, f := range figs { // the table's cells, as the dashboard writes them
		tokensCell := metrics.TokensText(f.Tokens, f.O200kTokens, f.TokenSource)
		row := ""
		for line := range strings.Lines(table.String()) {
			if fields := strings.Fields(line); len(fields) > 2 && fields[0] == strconv.Itoa(b.Providers[i].Rank) && fields[1] == names[i] {
				row = strings.TrimSuffix(line, "\n")
			}
		}
		for _, cell := range []struct {
			name, text string
			has        bool
		}{
			{"TTFT", format.Duration(f.TTFT), f.HasTTFT},
			{"per-user speed", format.TPS(f.Speed), f.HasSpeed},
			{"tokens", tokensCell, f.Tokens > 0},
			{"cost", format.USD(f.CostUSD), f.HasCost},
			{"aggregate", format.TPS(f.AggregateTPS), f.HasAggregateTPS && f.Streams > 1},
		} {
			if cell.has && !strings.Contains(row+" ", " "+cell.text+" ") {
				t.Errorf("run %d %s: table row %q lacks the dashboard's %s %s", run, names[i], row, cell.name, cell.text)
			}
		}
	}
}

// sameWatch: watch's gauges of the race are the dashboard's figures (and
// bench's E2E, which the dashboard does not show).
func sameWatch(t *testing.T, run int, cfg *config.Config, race [][]probes.Result, figs []live.Snapshot, b *benchdoc.Bench) {
	t.Helper()
	exp := watch.NewExporter(cfg.Providers)
	exp.Observe("probe", cfg.Providers, race)
	series := lastGauges(t, exp)
	for i, f := range figs {
		name := cfg.Providers[i].Name
		check := func(series_ string, has bool, want float64) {
			got, ok := series[series_+" "+name]
			if ok != has || ok && got != want {
				t.Errorf("run %d %s: %s %v (set %v), dashboard %v (defined %v)", run, name, series_, got, ok, want, has)
			}
		}
		check("tpsrace_last_ttft_seconds", f.HasTTFT, f.TTFT.Seconds())
		check("tpsrace_last_output_tokens_per_second", f.HasSpeed, f.Speed)
		check("tpsrace_last_race_ok", true, map[bool]float64{true: 1, false: 0}[f.Failed == 0])
		if e2e, got := b.Providers[i].Summary.E2Ems.P50, series["tpsrace_last_e2e_seconds "+name]; (e2e != nil) != (got != 0) || e2e != nil && math.Abs(*e2e/1000-got) > 1e-6 {
			t.Errorf("run %d %s: watch's E2E %vs, bench's %v ms", run, name, got, e2e)
		}
	}
}

// lastGauges are exp's tpsrace_last_* series, by "name provider".
func lastGauges(t *testing.T, exp *watch.Exporter) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	exp.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	series := map[string]float64{}
	for line := range strings.Lines(rec.Body.String()) {
		if name, rest, ok := strings.Cut(line, "{"); ok && strings.HasPrefix(name, "tpsrace_last_") {
			labels, value, _ := strings.Cut(rest, "} ")
			provider := labels[strings.Index(labels, `provider="`)+10:]
			provider = provider[:strings.IndexByte(provider, '"')]
			v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			if err != nil {
				t.Fatal(err)
			}
			series[name+" "+provider] = v
		}
	}
	return series
}

// sameReplay: a recording of the races replays (replay --bench) to the
// same document, byte for byte.
func sameReplay(t *testing.T, cfg *config.Config, conc, finishAt int, races [][][]probes.Result, b *benchdoc.Bench) {
	t.Helper()
	var buf bytes.Buffer
	w := recording.NewWriter(&buf, recording.NewHeader(cfg, conc, b.StartedAt), cfg, false)
	for _, race := range races {
		if err := w.Race(race); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(false); err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	in := rec.Report()
	in.FinishAt = finishAt
	var live, replayed bytes.Buffer
	report.Of(b).WriteJSON(&live)
	report.Of(benchdoc.Build(in)).WriteJSON(&replayed)
	if live.String() != replayed.String() {
		t.Errorf("replay --bench differs from the live report:\nlive:\n%s\nreplayed:\n%s", live.String(), replayed.String())
	}
}
