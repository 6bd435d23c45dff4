package recording

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/buildinfo"
	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/workload"
)

// Named is a recording and where it was read from, for messages.
type Named struct {
	Name string
	*Recording
}

// ReadConcatenated reads recordings written one after another into r (not
// gzipped), as `kubectl logs` of a Job's pods prints them: each starts at
// its header line and ends at its end line. Lines that are not JSON
// objects (the logs and progress lines a pod also prints) are skipped and
// counted. A recording cut short is an error naming its line.
func ReadConcatenated(r io.Reader, name string) (recs []Named, skipped int, err error) {
	in := bufio.NewReader(r)
	var cur *Recording
	for line := 1; ; line++ {
		b, rerr := in.ReadBytes('\n')
		if len(b) > 0 {
			trimmed := strings.TrimSpace(string(b))
			var kind struct {
				Type string `json:"type"`
			}
			switch {
			case !strings.HasPrefix(trimmed, "{") || json.Unmarshal([]byte(trimmed), &kind) != nil || kind.Type == "":
				skipped++
			case kind.Type == typeHeader:
				if cur != nil {
					return recs, skipped, &Error{Path: name, Line: line, Err: fmt.Errorf("a new recording begins before recording %d ended (cut short)", len(recs))}
				}
				if cur, err = parseHeader([]byte(trimmed)); err != nil {
					return recs, skipped, &Error{Path: name, Line: line, Err: err}
				}
				recs = append(recs, Named{Name: fmt.Sprintf("%s (recording %d, line %d)", name, len(recs)+1, line), Recording: cur})
			case cur == nil:
				return recs, skipped, &Error{Path: name, Line: line, Err: errors.New("a recording line before any header")}
			default:
				done, err := cur.apply([]byte(trimmed))
				if err != nil {
					return recs, skipped, &Error{Path: name, Line: line, Err: err}
				}
				if done {
					cur = nil
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return recs, skipped, &Error{Path: name, Line: line, Err: rerr}
		}
	}
	if cur != nil {
		return recs, skipped, &Error{Path: name, Err: fmt.Errorf("recording %d ends without its end line (cut short)", len(recs))}
	}
	if len(recs) == 0 {
		return nil, skipped, &Error{Path: name, Err: errors.New("no tpsrace recording in it")}
	}
	return recs, skipped, nil
}

// Merge joins recordings of one --start-at instant, made by different
// probes, into one race whose lanes are provider@probe, in the order given.
// Each recording gives its first race (the one released at the instant).
// The release of the merged race is the common instant; each lane keeps
// its own host's times, so its figures are those of its own recording, and
// Header.Probes says when each host released by its own clock. Recordings
// of different workloads, prompts, max_tokens, concurrency or start
// instants, without a probe name or a start instant, or of one probe twice
// are refused, saying which.
func Merge(recs []Named) (*Recording, error) {
	if len(recs) < 2 {
		return nil, fmt.Errorf("merge joins two recordings or more, got %d", len(recs))
	}
	first := recs[0]
	h := Header{Type: typeHeader, Schema: Schema, RecordedAt: time.Now().UTC(), Tool: Tool, Prompt: first.Header.Prompt,
		MaxTokens: first.Header.MaxTokens, Concurrency: first.Header.Concurrency, Workload: first.Header.Workload, FinishAt: first.Header.FinishAt, Providers: []Provider{},
		StartAt: first.Header.StartAt}
	info := buildinfo.Read()
	h.ToolVersion = &info
	merged := &Recording{Header: h}
	race := Race{}
	for _, r := range recs {
		rh := r.Header
		switch {
		case rh.Probe == "":
			return nil, fmt.Errorf("%s names no probe (recorded without --probe-name by a tpsrace before it, or already merged)", r.Name)
		case rh.StartAt == nil:
			return nil, fmt.Errorf("%s has no start instant: record each probe with bench --start-at and the same instant", r.Name)
		case !rh.StartAt.Equal(*first.Header.StartAt):
			return nil, fmt.Errorf("%s was released at %s and %s at %s: a merge joins the recordings of one --start-at",
				first.Name, first.Header.StartAt.Format(time.RFC3339Nano), r.Name, rh.StartAt.Format(time.RFC3339Nano))
		case workloadOf(rh) != workloadOf(first.Header):
			return nil, fmt.Errorf("%s and %s ran different workloads (%s): a merge joins one race", first.Name, r.Name, workloadDifference(first.Header, rh))
		case rh.Prompt != first.Header.Prompt:
			return nil, fmt.Errorf("%s and %s raced different prompts (%q, %q)", first.Name, r.Name, clip(first.Header.Prompt), clip(rh.Prompt))
		case rh.MaxTokens != first.Header.MaxTokens:
			return nil, fmt.Errorf("%s and %s ran different workloads (max_tokens %d and %d): a merge joins one race",
				first.Name, r.Name, first.Header.MaxTokens, rh.MaxTokens)
		case rh.Concurrency != first.Header.Concurrency:
			return nil, fmt.Errorf("%s and %s ran different workloads (concurrency %d and %d streams per provider): a merge joins one race",
				first.Name, r.Name, first.Header.Concurrency, rh.Concurrency)
		case len(r.Races) == 0:
			return nil, fmt.Errorf("%s holds no race", r.Name)
		}
		for _, p := range merged.Header.Probes {
			if p.Name == rh.Probe {
				return nil, fmt.Errorf("two recordings from probe %q (%s is the second): give each host its own --probe-name", rh.Probe, r.Name)
			}
		}
		own := r.Races[0]
		var sent []time.Duration
		for _, streams := range own.Results {
			for _, res := range streams {
				if !res.Release.IsZero() {
					sent = append(sent, res.Sent)
				}
			}
		}
		var earliest time.Duration
		if len(sent) > 0 {
			earliest = slices.Min(sent)
		}
		merged.Header.Probes = append(merged.Header.Probes, Probe{Name: rh.Probe, Release: own.Release, SentNS: int64(earliest), Clock: rh.Clock})
		merged.Header.Simulated = merged.Header.Simulated || rh.Simulated
		merged.Interrupted = merged.Interrupted || r.Interrupted
		host := merged.Header.host(rh.Probe)
		for i, p := range rh.Providers {
			p.Name, p.Probe = p.Name+"@"+rh.Probe, rh.Probe
			merged.Header.Providers = append(merged.Header.Providers, p)
			lane := slices.Clone(own.Results[i])
			for k := range lane {
				lane[k].Provider, lane[k].Host = p.Name, host
				if !lane[k].Release.IsZero() {
					lane[k].Release = *rh.StartAt
				}
			}
			race.Results = append(race.Results, lane)
		}
	}
	start := *first.Header.StartAt
	merged.Header.StartAt, merged.Header.StartedAt, race.Release = &start, start, start
	merged.Races = []Race{race}
	return merged, nil
}

// workloadOf is h's workload with its settings, comparable ("" for chat).
func workloadOf(h Header) string {
	if h.Workload == nil || h.Workload.Is(workload.Chat) && h.Workload.Tool == nil && h.Workload.InputTokens == nil {
		return ""
	}
	b, _ := json.Marshal(h.Workload)
	return string(b)
}

// workloadDifference says how a's workload and b's differ: by name
// ("chat and long-context"), else by their settings, as the file gives
// them.
func workloadDifference(a, b Header) string {
	var wa, wb workload.Workload
	if a.Workload != nil {
		wa = *a.Workload
	}
	if b.Workload != nil {
		wb = *b.Workload
	}
	if wa.Label() != wb.Label() {
		return wa.Label() + " and " + wb.Label()
	}
	return wa.Label() + " with other settings: " + workloadOf(a) + " and " + workloadOf(b)
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// StartSkew is the start skew of the recording's first race (a merged
// race has one), as every view words it (metrics.Skew): "start skew 1.8ms
// ± 0.9ms across 3 probes", or "start skew unknown across 3 probes (the
// clock of iad is not synchronised)"; "" for a recording that is not
// merged, whose own skew the dashboard and the JSON show.
func (r *Recording) StartSkew() string {
	if len(r.Header.Probes) == 0 || len(r.Races) == 0 {
		return ""
	}
	skew, ok := metrics.StartSkewOf(slices.Concat(r.Races[0].Results...))
	if !ok {
		return ""
	}
	return "start skew " + skew.String()
}

// host is the host of probe in a merged race, for its streams
// (probes.Result.Host): its release after the common instant by its own
// clock, and that clock; nil when the recording names no such probe.
func (h Header) host(probe string) *probes.Host {
	for _, p := range h.Probes {
		if p.Name != probe || h.StartAt == nil {
			continue
		}
		host := &probes.Host{Name: p.Name, Offset: p.Release.Sub(*h.StartAt)}
		if p.Clock != nil && p.Clock.Synchronised {
			host.Synchronised, host.ClockError = true, p.Clock.EstError
		}
		return host
	}
	return nil
}

// fleet is the bench document's "fleet" of a merged race (benchdoc.Build
// adds its start skew); nil otherwise.
func (h Header) fleet() *benchdoc.Fleet {
	if len(h.Probes) == 0 {
		return nil
	}
	f := &benchdoc.Fleet{}
	for _, p := range h.Probes {
		f.Probes = append(f.Probes, benchdoc.FleetProbe{Name: p.Name, Release: p.Release, Clock: p.Clock})
	}
	return f
}

// ByProvider is a merged race's report input with each provider's lanes
// on every probe joined into one: its streams on every host together, so
// that its aggregate tok/s (metrics.SummaryOf) is what it served to all of
// them. Concurrency is the streams per provider: C × probes.
func (r *Recording) ByProvider() benchdoc.Input {
	in := r.Report()
	cfg := sameRace(in.Config)
	index := map[string]int{}
	races := make([][][]probes.Result, len(in.Races))
	for i, p := range r.Header.Providers {
		name := strings.TrimSuffix(p.Name, "@"+p.Probe)
		k, seen := index[name]
		if !seen {
			k = len(cfg.Providers)
			index[name] = k
			q := in.Config.Providers[i]
			q.Name = name
			cfg.Providers = append(cfg.Providers, q)
			for run := range races {
				races[run] = append(races[run], nil)
			}
		}
		for run, race := range in.Races {
			races[run][k] = append(races[run][k], race[i]...)
		}
	}
	in.Config, in.Races = cfg, races
	in.Concurrency *= max(len(r.Header.Probes), 1)
	return in
}

// PerProbe splits a merged race into one report input per probe, its
// providers under their own names, with the probe's name; a recording
// that is not merged is one input, named by its probe.
func (r *Recording) PerProbe() (inputs []benchdoc.Input, names []string) {
	if len(r.Header.Probes) == 0 {
		return []benchdoc.Input{r.Report()}, []string{r.Header.Probe}
	}
	all := r.Report()
	for _, probe := range r.Header.Probes {
		in := all
		in.Config = sameRace(all.Config)
		in.Races = make([][][]probes.Result, len(all.Races))
		in.Clock, in.Fleet = probe.Clock, nil
		for i, p := range r.Header.Providers {
			if p.Probe != probe.Name {
				continue
			}
			q := all.Config.Providers[i]
			q.Name = strings.TrimSuffix(p.Name, "@"+p.Probe)
			in.Config.Providers = append(in.Config.Providers, q)
			for run, race := range all.Races {
				in.Races[run] = append(in.Races[run], race[i])
			}
		}
		inputs, names = append(inputs, in), append(names, probe.Name)
	}
	return inputs, names
}

// Save writes rec to path (gzipped when it ends in .gz), as a whole.
func (r *Recording) Save(path string) error {
	return WriteFile(path, r.Header, r.config(), r.results(), r.Interrupted)
}

// sameRace is cfg without its providers, for a reading of the same race
// that lists them another way (ByProvider, PerProbe): its workload, SLO and
// the rest stay, so each reading computes the same figures.
func sameRace(cfg *config.Config) *config.Config {
	c := *cfg
	c.Providers = nil
	return &c
}
