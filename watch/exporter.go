// Package watch runs races on a schedule and exports what they measured to
// Prometheus (`tpsrace watch`). It aggregates nothing itself: every figure
// comes from package metrics, and Prometheus and Grafana do the rest.
//
//	exp := watch.NewExporter(cfg.Providers)
//	http.Handle("/metrics", exp.Handler())
//	exp.Start("eu-west", cfg.Providers)
//	exp.Observe("eu-west", cfg.Providers, race.Run(ctx, nil))
package watch

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
)

// Bucket bounds, chosen for LLM speeds (docs/WATCH.md explains them): each
// spans the fastest provider measured today to the slowest a user would still
// wait for, denser where providers cluster.
var (
	// TTFTBuckets in seconds: LPU and wafer-scale chips answer in 0.1–0.3 s,
	// GPU clouds in 0.3–1 s, queues and reasoning models take seconds.
	TTFTBuckets = []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30, 60}
	// SpeedBuckets in tokens/s: a laptop makes 10–40, GPU clouds 50–200,
	// LPUs 300–1000, wafer-scale chips 1000–3000.
	SpeedBuckets = []float64{5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000}
	// E2EBuckets in seconds: a 400-token answer takes 0.3 s at 2000 tok/s
	// and 16 s at 25 tok/s; the default total limit is 5 minutes.
	E2EBuckets = []float64{0.25, 0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 45, 60, 120, 300}
)

// Labels of every series. Their values are bounded: the configured provider
// names and models, the probe name, and (failures only) the failure kind.
// Prompt text and error messages never become labels.
var labels = []string{"provider", "model", "probe"}

// Exporter holds the tpsrace series in a registry of its own (plus the Go
// and process collectors), never the global default one.
type Exporter struct {
	registry  *prometheus.Registry
	simulated map[string]bool // the names of the providers tpsrace's simulator serves

	ttft, speed, e2e      *prometheus.HistogramVec
	outputTokens, races   *prometheus.CounterVec
	failures              *prometheus.CounterVec
	lastTTFT, lastSpeed   *prometheus.GaugeVec
	lastE2E, lastRaceTime *prometheus.GaugeVec
	lastOK                *prometheus.GaugeVec
	sloMet, sloMissed     *prometheus.CounterVec
	workload              map[string]*prometheus.GaugeVec // workloadGauges by name (ObserveRun)
	sweep                 map[string]*prometheus.GaugeVec // sweepGauges and the knee's by name (ObserveSweep)
}

// NewExporter registers every series. Those of a simulated provider (one
// that tpsrace's simulator serves: config.Provider.Simulated) carry
// simulated="true", so a dashboard, an alert or a recording rule sees what
// the logs and history say: they are not real measurements. In a file that
// mixes sim: models with real providers only the simulated ones carry it:
// a real provider's figures are real whatever races beside it. The Go and
// process series describe tpsrace itself and carry no such label.
func NewExporter(providers []config.Provider) *Exporter {
	hist := func(name, help string, buckets []float64) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	}
	gauge := func(name, help string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	}
	e := &Exporter{
		registry:  prometheus.NewRegistry(),
		simulated: map[string]bool{},
		ttft:      hist("tpsrace_ttft_seconds", "Time to first token (release to the first text event) of each stream that got text, failed ones included.", TTFTBuckets),
		speed:     hist("tpsrace_output_tokens_per_second", "Per-user output speed of each completed stream (streamed tokens after the first event / time from first to last text event; hidden reasoning left out).", SpeedBuckets),
		e2e:       hist("tpsrace_e2e_seconds", "Total time (release to end of stream) of each completed stream.", E2EBuckets),
		outputTokens: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tpsrace_output_tokens_total",
			Help: "Output tokens received, failed streams included (usage when reported, else the o200k count)."}, labels),
		races: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tpsrace_races_total",
			Help: "Races the provider took part in."}, labels),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tpsrace_failures_total",
			Help: "Streams that failed, by failure kind (network, http, protocol, stream, timeout, unknown)."}, append(slices.Clone(labels), "kind")),
		lastTTFT:     gauge("tpsrace_last_ttft_seconds", "TTFT of the provider's last race (median of its streams that got text, as the dashboard and bench)."),
		lastSpeed:    gauge("tpsrace_last_output_tokens_per_second", "Output speed of the provider's last race (median of its completed streams, as the dashboard and bench)."),
		lastE2E:      gauge("tpsrace_last_e2e_seconds", "Total time of the provider's last race (median of its completed streams)."),
		lastRaceTime: gauge("tpsrace_last_race_timestamp_seconds", "When the provider's last race was released (Unix time)."),
		lastOK:       gauge("tpsrace_last_race_ok", "1 when every stream of the provider's last race completed, else 0."),
		sloMet: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tpsrace_slo_met_total",
			Help: "Streams that met a bound of the provider's SLO (completed, ttft, output_tps, e2e; all: every bound, the goodput)."}, append(slices.Clone(labels), "bound")),
		sloMissed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tpsrace_slo_missed_total",
			Help: "Streams that missed a bound of the provider's SLO (completed, ttft, output_tps, e2e; all: some bound)."}, append(slices.Clone(labels), "bound")),
	}
	for _, p := range providers {
		e.simulated[p.Name] = p.Simulated()
	}
	e.registry.MustRegister(e.ttft, e.speed, e.e2e, e.outputTokens, e.races, e.failures,
		e.lastTTFT, e.lastSpeed, e.lastE2E, e.lastRaceTime, e.lastOK, e.sloMet, e.sloMissed)
	e.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	e.workload = map[string]*prometheus.GaugeVec{}
	for _, g := range slices.Concat(workloadGauges(), thinkingGauges()) {
		e.workload[g.name] = gauge(g.name, g.help)
		e.registry.MustRegister(e.workload[g.name])
	}
	e.registerSweep()
	return e
}

// Handler serves the registry in the Prometheus exposition format.
func (e *Exporter) Handler() http.Handler {
	return promhttp.HandlerFor(prometheus.GathererFunc(e.gather), promhttp.HandlerOpts{Registry: e.registry})
}

// simulatedLabel marks a simulated provider's series (NewExporter).
var simulatedLabel = func() *dto.LabelPair {
	name, value := "simulated", "true"
	return &dto.LabelPair{Name: &name, Value: &value}
}()

// gather is the registry's series, each of a simulated provider labelled
// simulated="true". The label is added here rather than registered: one
// series family holds both kinds where a file mixes them, and a label
// registered on a family is on every series of it.
func (e *Exporter) gather() ([]*dto.MetricFamily, error) {
	families, err := e.registry.Gather()
	for _, f := range families {
		for _, m := range f.Metric {
			i := slices.IndexFunc(m.Label, func(l *dto.LabelPair) bool { return l.GetName() == "provider" })
			if i < 0 || !e.simulated[m.Label[i].GetValue()] {
				continue
			}
			at, _ := slices.BinarySearchFunc(m.Label, "simulated", func(l *dto.LabelPair, name string) int { return strings.Compare(l.GetName(), name) })
			m.Label = slices.Insert(slices.Clone(m.Label), at, simulatedLabel)
		}
	}
	return families, err
}

// Start creates every counter and histogram series of providers raced from
// probe at zero, before the first race: increase() and rate() see a
// series' first step only from a sample before it, so without this the
// first failure of a kind (and the first race) would not show. Gauges are
// left out: a last TTFT of 0 would be a figure nobody measured.
func (e *Exporter) Start(probe string, providers []config.Provider) {
	for _, p := range providers {
		l := prometheus.Labels{"provider": p.Name, "model": p.Model, "probe": probe}
		e.ttft.With(l)
		e.speed.With(l)
		e.e2e.With(l)
		e.outputTokens.With(l)
		e.races.With(l)
		for _, kind := range probes.Kinds {
			if kind != probes.KindCancelled { // cancelled streams are never observed
				e.failures.MustCurryWith(l).WithLabelValues(kind)
			}
		}
		for _, bound := range sloBounds(p.SLO) {
			e.sloMet.MustCurryWith(l).WithLabelValues(bound)
			e.sloMissed.MustCurryWith(l).WithLabelValues(bound)
		}
	}
}

// boundAll labels the streams that met every bound of the SLO (met) or
// some bound (missed): the goodput.
const boundAll = "all"

// sloBounds are the bound labels of slo's counters: completed, each bound
// it sets, all; none without an SLO.
func sloBounds(slo config.SLO) []string {
	if !slo.Set() {
		return nil
	}
	return slices.Concat([]string{metrics.BoundCompleted}, metrics.SLOBounds(slo), []string{boundAll})
}

// observeSLO counts stream f against slo, bound by bound (metrics.MeetsSLO).
func (e *Exporter) observeSLO(l prometheus.Labels, slo config.SLO, f metrics.Figures) {
	missed := metrics.MeetsSLO(f, slo)
	for _, bound := range sloBounds(slo) {
		met := !slices.Contains(missed, bound)
		if bound == boundAll {
			met = len(missed) == 0
		}
		if met {
			e.sloMet.MustCurryWith(l).WithLabelValues(bound).Inc()
		} else {
			e.sloMissed.MustCurryWith(l).WithLabelValues(bound).Inc()
		}
	}
}

// Observe records one race: results[provider][stream] of providers, raced
// from probe. Streams cut short because tpsrace itself was stopped are left
// out: they say nothing about the provider.
func (e *Exporter) Observe(probe string, providers []config.Provider, results [][]probes.Result) {
	for i, p := range providers {
		if i >= len(results) {
			break
		}
		l := prometheus.Labels{"provider": p.Name, "model": p.Model, "probe": probe}
		var streams []metrics.Stream
		var release time.Time
		for _, res := range results[i] {
			if res.Interrupted {
				continue
			}
			release = res.Release
			s := metrics.StreamOf(&res, 0, 0)
			streams = append(streams, s)
			e.outputTokens.With(l).Add(float64(s.OutputTokens))
			e.observeSLO(l, p.SLO, s.Figures)
			if !res.OK() {
				e.failures.MustCurryWith(l).WithLabelValues(probes.KindOf(res.Err)).Inc()
			}
			e.observeSample(l, metrics.SampleOf(s))
		}
		if len(streams) == 0 {
			continue
		}
		run := metrics.SummaryOf(streams, 0)
		e.races.With(l).Inc()
		e.lastRaceTime.With(l).Set(float64(release.UnixNano()) / 1e9)
		e.lastOK.With(l).Set(boolFloat(run.Failed == 0))
		// A race with no defined value leaves a gauge at the last value it
		// had (tpsrace_last_race_ok says it failed).
		if run.TTFT.Has() {
			e.lastTTFT.With(l).Set(run.TTFT.P50.Seconds())
		}
		if run.Speed.Has() {
			e.lastSpeed.With(l).Set(run.Speed.P50)
		}
		if run.E2E.Has() {
			e.lastE2E.With(l).Set(run.E2E.P50.Seconds())
		}
	}
}

// observeSample observes what one stream adds to the provider's figures,
// by metrics.SummaryOf's rule (metrics.SampleOf), so the histograms and the
// last-race gauges count the same streams.
func (e *Exporter) observeSample(l prometheus.Labels, s metrics.Sample) {
	if s.HasTTFT {
		e.ttft.With(l).Observe(s.TTFT.Seconds())
	}
	if s.HasE2E {
		e.e2e.With(l).Observe(s.E2E.Seconds())
	}
	if s.HasSpeed {
		e.speed.With(l).Observe(s.Speed)
	}
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
