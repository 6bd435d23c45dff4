package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
)

// Jitter is the largest share of the interval by which a race starts early
// or late, so probes started together (a fleet restarted at once) drift apart
// instead of hitting the providers in the same second.
const Jitter = 0.1

// Watcher races Config's providers every Interval until its context ends.
type Watcher struct {
	Config   *config.Config
	Race     probes.Race
	Probe    string        // the probe label: where this watcher runs
	Interval time.Duration // between race starts
	// Grace is how long a stop lets the race in flight finish before it is
	// cancelled; a cancelled race is still written to History, marked interrupted.
	Grace    time.Duration
	History  io.Writer // one JSON line per race; nil for none
	Exporter *Exporter
	Log      *slog.Logger
	// Sweep: a concurrency sweep's levels (config.CheckSweep); each race of
	// the schedule is then a sweep of them (sweepOnce), one record. nil:
	// one race at Race.Concurrency.
	Sweep []int

	mu       sync.Mutex
	races    int
	lastRace time.Time
}

// next is when the race after one started at last should start: Interval
// later, moved by up to ±Jitter of it (rnd in [0,1)), and never before now,
// so a race longer than the interval is followed at once, never overlapped
// and never followed by a burst that catches up.
func next(last time.Time, interval time.Duration, now time.Time, rnd float64) time.Time {
	jitter := time.Duration((2*rnd - 1) * Jitter * float64(interval))
	return later(last.Add(interval+jitter), now)
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Run races at once, then on the schedule of next, one race at a time,
// until ctx ends. It returns after the race in flight has finished (or been
// cancelled Grace after ctx ended) and has been recorded.
func (w *Watcher) Run(ctx context.Context) error {
	w.Exporter.Start(w.Probe, w.Config.Providers)
	w.Log.Info("watching", "probe", w.Probe, "providers", len(w.Config.Providers), "interval", w.Interval.String(), "simulated", w.Config.Simulated())
	for start := time.Now(); ; {
		if err := w.raceOnce(ctx); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		start = next(start, w.Interval, time.Now(), rand.Float64())
		t := time.NewTimer(time.Until(start))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// raceOnce runs one race and records it: metrics, history, logs. Only a
// failure to write the history is an error: it would lose data silently.
func (w *Watcher) raceOnce(ctx context.Context) error {
	raceCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	finished := make(chan struct{})
	go func() { // a stop gives the race in flight Grace to finish
		select {
		case <-finished:
		case <-ctx.Done():
			t := time.NewTimer(w.Grace)
			defer t.Stop()
			select {
			case <-finished:
			case <-t.C:
				w.Log.Warn("stopping: cancelling the race in flight", "grace", w.Grace.String())
				cancel()
			}
		}
	}()
	started := time.Now()
	var b *benchdoc.Bench
	if w.Sweep != nil {
		b = w.sweepOnce(raceCtx, started)
	} else {
		b = w.runOnce(raceCtx, started)
	}
	close(finished)

	w.Exporter.ObserveRun(w.Probe, b)
	w.logRace(b)
	w.mu.Lock()
	w.races++
	w.lastRace = started
	w.mu.Unlock()
	if w.History == nil {
		return nil
	}
	line, err := json.Marshal(benchdoc.Record{Bench: *b, Probe: w.Probe})
	if err != nil {
		return err
	}
	if _, err := w.History.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("writing the history: %w", err)
	}
	return nil
}

// runOnce runs one run of the workload: one race, or a long-context
// race's sizes (one race each), a cached-prefix race's cold and warm
// races, a multi-turn race's turns, feeding each race to the exporter.
func (w *Watcher) runOnce(ctx context.Context, started time.Time) *benchdoc.Bench {
	seq, conv := w.Config.Workload.Sequence(), &probes.Conversation{}
	var races [][][]probes.Result
	for range seq.PerRun() {
		race := w.Race
		step, nonce := seq.Next(time.Now())
		race.Request.InputTokens, race.Request.Nonce = step.InputTokens, nonce
		race.Request = conv.Turn(race.Request, step.FollowUps)
		results := race.Run(ctx, nil)
		conv.Heard(results)
		w.Exporter.Observe(w.Probe, w.Config.Providers, results)
		races = append(races, results)
		if ctx.Err() != nil {
			break
		}
	}
	return benchdoc.Build(benchdoc.Input{Config: w.Config, Concurrency: w.Race.Concurrency, StartedAt: started,
		Races: races, Interrupted: ctx.Err() != nil})
}

// logRace logs one line per provider, and one per failed stream with its
// kind and its (redacted) message.
func (w *Watcher) logRace(b *benchdoc.Bench) {
	for _, p := range b.Providers {
		s := p.Summary
		attrs := []any{"probe", w.Probe, "provider", p.Name, "model", p.Model, "ok", s.OK, "failed", s.Failed}
		if v := s.TTFTms.P50; v != nil {
			attrs = append(attrs, "ttft_ms", *v)
		}
		if v := s.OutputTPS.P50; v != nil {
			attrs = append(attrs, "output_tps", *v)
		}
		if v := s.E2Ems.P50; v != nil {
			attrs = append(attrs, "e2e_ms", *v)
		}
		w.Log.Info("race", attrs...)
		for _, r := range p.Streams {
			if r.Error != nil && !r.Interrupted {
				w.Log.Warn("stream failed", "probe", w.Probe, "provider", p.Name, "model", p.Model, "stream", r.Index,
					"kind", *r.ErrorKind, "error", *r.Error)
			}
		}
	}
}

// Handler serves /metrics and /healthz. /healthz answers 200 with the
// probe, the races run so far and when the last one started: the process is
// alive and serving (a provider that fails is a metric, not ill health).
func (w *Watcher) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", w.Exporter.Handler())
	mux.HandleFunc("GET /healthz", func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		health := struct {
			Status   string     `json:"status"`
			Probe    string     `json:"probe"`
			Races    int        `json:"races"`
			LastRace *time.Time `json:"last_race"`
		}{Status: "ok", Probe: w.Probe, Races: w.races}
		if !w.lastRace.IsZero() {
			t := w.lastRace.UTC()
			health.LastRace = &t
		}
		w.mu.Unlock()
		rw.Header().Set("Content-Type", "application/json")
		json.NewEncoder(rw).Encode(health)
	})
	return mux
}
