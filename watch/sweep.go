package watch

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tpsrace/benchdoc"
	"tpsrace/probes"
)

// sweepGauges are a concurrency sweep's figures per level, each a gauge
// with a "concurrency" label besides the usual ones: its values are the
// sweep's levels (at most config.MaxSweepLevels), so the series stay
// bounded. Each holds the level's figure from the last sweep.
var sweepGauges = []struct {
	name, help string
	value      func(p benchdoc.SweepPoint) *float64
}{
	{"tpsrace_sweep_per_user_tokens_per_second", "Concurrency sweep: median per-user output speed at the level, last sweep.",
		func(p benchdoc.SweepPoint) *float64 { return p.PerUserTPS }},
	{"tpsrace_sweep_aggregate_tokens_per_second", "Concurrency sweep: aggregate output speed of the level's users together (metrics.AggregateTPS), last sweep.",
		func(p benchdoc.SweepPoint) *float64 { return p.AggregateTPS }},
	{"tpsrace_sweep_ttft_seconds", "Concurrency sweep: median TTFT at the level (queueing shows as its growth), last sweep.",
		func(p benchdoc.SweepPoint) *float64 { return seconds(p.TTFTms.P50) }},
	{"tpsrace_sweep_e2e_seconds", "Concurrency sweep: median total time of the level's completed streams, last sweep.",
		func(p benchdoc.SweepPoint) *float64 { return seconds(p.E2Ems.P50) }},
	{"tpsrace_sweep_goodput_ratio", "Concurrency sweep: share of the level's streams that met every bound of the SLO (0-1), last sweep; absent without an SLO.",
		func(p benchdoc.SweepPoint) *float64 {
			if p.Goodput == nil {
				return nil
			}
			return ptr(p.Goodput.Share)
		}},
	{"tpsrace_sweep_client_bent", "Concurrency sweep: 1 when tpsrace itself was saturated at the level (client_saturated: its figures may be the client's), else 0.",
		func(p benchdoc.SweepPoint) *float64 { return ptr(boolFloat(p.ClientBent)) }},
}

const kneeGauge = "tpsrace_sweep_knee_concurrency"

func seconds(ms *float64) *float64 {
	if ms == nil {
		return nil
	}
	return ptr(*ms / 1000)
}

// registerSweep adds the sweep's gauges (sweepGauges, and the knee's) to the registry.
func (e *Exporter) registerSweep() {
	e.sweep = map[string]*prometheus.GaugeVec{}
	withLevel := append(slices.Clone(labels), "concurrency")
	for _, g := range sweepGauges {
		e.sweep[g.name] = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: g.name, Help: g.help}, withLevel)
		e.registry.MustRegister(e.sweep[g.name])
	}
	e.sweep[kneeGauge] = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: kneeGauge,
		Help: "Concurrency sweep: the provider's knee, the level past which doubling the users gains under 10% aggregate (docs/SWEEP.md), last sweep; absent when none was within the sweep."}, labels)
	e.registry.MustRegister(e.sweep[kneeGauge])
}

// ObserveSweep records the levels and knees of the sweep in b, raced from
// probe. A level without a figure (none measured it, or the sweep stopped
// before it) has its series removed, as has a knee not found: an old value
// must not pass for this sweep's.
func (e *Exporter) ObserveSweep(probe string, b *benchdoc.Bench) {
	if b.Sweep == nil || b.Interrupted {
		return
	}
	models := map[string]string{}
	for _, p := range b.Providers {
		models[p.Name] = p.Model
	}
	for _, c := range b.SweepAsked {
		for _, p := range b.Providers {
			l := prometheus.Labels{"provider": p.Name, "model": p.Model, "probe": probe, "concurrency": strconv.Itoa(c)}
			for _, g := range sweepGauges {
				e.sweep[g.name].Delete(l)
			}
		}
	}
	for _, level := range b.Levels {
		for _, p := range level.Providers {
			l := prometheus.Labels{"provider": p.Name, "model": models[p.Name], "probe": probe, "concurrency": strconv.Itoa(level.Concurrency)}
			for _, g := range sweepGauges {
				if v := g.value(p); v != nil {
					e.sweep[g.name].With(l).Set(*v)
				}
			}
		}
	}
	for _, k := range b.Knees {
		l := prometheus.Labels{"provider": k.Name, "model": models[k.Name], "probe": probe}
		if k.Concurrency == nil {
			e.sweep[kneeGauge].Delete(l)
			continue
		}
		e.sweep[kneeGauge].With(l).Set(float64(*k.Concurrency))
	}
}

// sweepOnce races the sweep's levels in turn (benchdoc.Climb), one race
// at each, feeding each race to the exporter's stream series.
func (w *Watcher) sweepOnce(ctx context.Context, started time.Time) *benchdoc.Bench {
	in := benchdoc.SweepInput{Input: benchdoc.Input{Config: w.Config, StartedAt: started}, Asked: w.Sweep}
	in.Levels, in.Stopped = benchdoc.Climb(ctx, w.Race, w.Sweep, func(race probes.Race) [][][]probes.Result {
		results := race.Run(ctx, nil)
		w.Exporter.Observe(w.Probe, w.Config.Providers, results)
		return [][][]probes.Result{results}
	})
	if in.Stopped != "" {
		w.Log.Warn("sweep stopped climbing", "probe", w.Probe, "why", in.Stopped)
	}
	in.Interrupted = ctx.Err() != nil
	b := benchdoc.BuildSweep(in)
	w.Exporter.ObserveSweep(w.Probe, b)
	if !b.Interrupted {
		w.Log.Info("sweep", "probe", w.Probe, "verdict", b.SweepVerdict)
	}
	return b
}

func ptr(v float64) *float64 { return &v }
