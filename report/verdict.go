package report

import (
	"math"
	"time"

	"tpsrace/metrics"
	"tpsrace/probes"
)

// Verdict is the JSON of metrics.Verdict: who is faster over the runs and
// how sure that is. Names are null when there is no winner (or runner-up),
// ratio when there is nothing to divide, ci95 below metrics.MinRunsForCI
// paired runs.
type Verdict struct {
	Winner       *string          `json:"winner"`
	RunnerUp     *string          `json:"runner_up"`
	Metric       string           `json:"metric"`
	Ratio        *float64         `json:"ratio"`
	CI95         *[2]float64      `json:"ci95"`
	Wins         int              `json:"wins"`
	Runs         int              `json:"runs"`
	Confident    bool             `json:"confident"`
	Text         string           `json:"text"`
	ColdFirstRun []string         `json:"cold_first_run"` // providers whose first run's TTFT was far above the rest
	RateLimited  map[string][]int `json:"rate_limited"`   // provider → runs answered 429
}

// contender is provider i's runs as metrics.Decide takes them: per run the
// median output speed (or N ÷ time to N tokens) and TTFT of its streams,
// and whether one was answered 429.
func contender(p Provider, i int, races [][][]probes.Result, finishAt int) metrics.Contender {
	c := metrics.Contender{Name: p.Name}
	for run, race := range races {
		var speeds, ttfts, totals []float64
		for _, r := range p.Runs {
			if r.Run != run {
				continue
			}
			if r.OK {
				totals = append(totals, r.E2Ems)
			}
			switch {
			case !r.OK:
			case finishAt > 0 && r.TimeToNms != nil:
				speeds = append(speeds, float64(finishAt)/(*r.TimeToNms/1000))
			case finishAt == 0 && r.OutputTPS != nil:
				speeds = append(speeds, *r.OutputTPS)
			}
			if r.TTFTms != nil {
				ttfts = append(ttfts, *r.TTFTms)
			}
		}
		speed, ok := metrics.Median(speeds)
		if !ok {
			speed = math.NaN()
		}
		ttft, _ := metrics.Median(ttfts)
		total, _ := metrics.Median(totals)
		limited := false
		if i < len(race) {
			for _, res := range race[i] {
				if f, ok := res.Err.(*probes.Failure); ok && f.Status == 429 {
					limited = true
				}
			}
		}
		c.Speeds = append(c.Speeds, speed)
		c.TTFT = append(c.TTFT, time.Duration(ttft*float64(time.Millisecond)))
		c.RateLimited = append(c.RateLimited, limited)
		c.Total = append(c.Total, time.Duration(total*float64(time.Millisecond)))
	}
	return c
}

// Contenders are b's providers' runs as the verdict takes them, in b's
// provider order (the config's): what the dashboard's --heats shows the
// median and spread of (metrics.OverRuns). races are the races b was built from.
func (b *Bench) Contenders(races [][][]probes.Result) []metrics.Contender {
	c := make([]metrics.Contender, len(b.Providers))
	for i, p := range b.Providers {
		c[i] = contender(p, i, races, finishAt(b))
	}
	return c
}

// verdict decides over b's providers in their ranking order.
func verdict(b *Bench, races [][][]probes.Result) Verdict {
	var ranked []metrics.Contender
	contenders := b.Contenders(races)
	for _, i := range b.RankedIndexes() {
		ranked = append(ranked, contenders[i])
	}
	v := metrics.Decide(ranked, finishAt(b))
	out := Verdict{Metric: v.Metric, Wins: v.Wins, Runs: v.Runs, Confident: v.Confident, Text: v.Text(),
		ColdFirstRun: v.Cold, RateLimited: v.RateLimited}
	if out.ColdFirstRun == nil {
		out.ColdFirstRun = []string{}
	}
	if out.RateLimited == nil {
		out.RateLimited = map[string][]int{}
	}
	if v.Winner != "" {
		out.Winner = ptr(v.Winner)
	}
	if v.RunnerUp != "" {
		out.RunnerUp = ptr(v.RunnerUp)
	}
	// Ratios to 0.001, as the other figures: meaningful, without float noise.
	if v.Runs > 0 {
		out.Ratio = ptr(round(v.Ratio, 1000))
	}
	if v.HasCI {
		out.CI95 = &[2]float64{round(v.CI95[0], 1000), round(v.CI95[1], 1000)}
	}
	return out
}
