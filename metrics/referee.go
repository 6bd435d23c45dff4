package metrics

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/probes"
	"tpsrace/workload"
)

// The referee's flags: what could make a race unfair, said where the
// figures are (README: "The referee"). Each comes with its evidence, in
// words.
const (
	FlagCachedPrompt     = "cached_prompt"     // the provider served prompt tokens from its cache
	FlagModelSubstituted = "model_substituted" // another model answered, or who answered changed
	FlagClientSaturated  = "client_saturated"  // tpsrace itself was the bottleneck
	FlagStartSkew        = "start_skew"        // the requests may have left more than StartSkewLimit apart (Skew.Over)
	FlagColdConnection   = "cold_connection"   // this stream paid DNS/TCP/TLS while others reused connections
	FlagRetried          = "retried"           // the request was sent again (before its first byte)
	FlagRateLimited      = "rate_limited"      // answered 429
	FlagShortAnswer      = "short_answer"      // too few tokens after the first for a speed to mean much
	FlagOneBurst         = "one_burst"         // the whole answer arrived at once: it was not streamed
	FlagCountMismatch    = "count_mismatch"    // usage and o200k disagree beyond the provider's usual ratio
)

// FlagOrder is the order flags are listed in.
var FlagOrder = []string{FlagModelSubstituted, FlagClientSaturated, FlagCachedPrompt, FlagOneBurst, FlagShortAnswer, FlagCountMismatch,
	FlagStartSkew, FlagColdConnection, FlagRetried, FlagRateLimited}

// The referee's thresholds.
const (
	// StartSkewLimit: a race whose requests left further apart than this
	// gave someone a head start worth naming.
	StartSkewLimit = 5 * time.Millisecond
	// SaturatedCPU: tpsrace's CPU over the race at this share of the
	// cores Go may use (GOMAXPROCS) or more: it was measuring itself.
	SaturatedCPU = 0.9
	// LateShare: a stream whose events the client stamped later than this
	// share of its gap (lateLimit), at the p95 of the client's wake delay
	// (ClientLoad.WakeP95), has figures the client bent: one event in
	// twenty moves its own gap and the next by a quarter or more, and the
	// stream's shape (ITL p95, feel) is no longer the provider's. Output speed and the workloads'
	// times span many gaps and bend far less (the verdict's own rule,
	// saturationExplains). The short-answer threshold is the workload's
	// (workload.Workload.ShortAnswerTokens).
	LateShare = 0.25
	// MinGap: a stream's gap is taken as at least this. A provider that
	// sends its answer in one burst (or a server starved of CPU that then
	// flushes it) has a mean gap of microseconds, which no client stamps
	// within, however idle: the flag would name the client for the
	// provider's burst. So a stream's text events that all arrived within
	// MinGap have no output speed (OutputTPS), and raise one_burst.
	MinGap = time.Millisecond
	// CountMismatchShare: a stream whose usage ÷ o200k ratio is further
	// than this from the median ratio of the provider's streams (at least
	// CountMismatchStreams of them) counted differently from its own
	// tokenizer's usual difference.
	CountMismatchShare   = 0.10
	CountMismatchStreams = 3
)

// Flags are raised flags, each with its evidence.
type Flags map[string]string

// Names are the raised flags in FlagOrder.
func (f Flags) Names() []string {
	var names []string
	for _, name := range FlagOrder {
		if _, ok := f[name]; ok {
			names = append(names, name)
		}
	}
	return names
}

// Text is the flags as the dashboard carries them (a string keeps its
// figures comparable): one "name: evidence" line each, in FlagOrder; ""
// for none. FlagsOfText reads it back.
func (f Flags) Text() string {
	var lines []string
	for _, name := range f.Names() {
		lines = append(lines, name+": "+f[name])
	}
	return strings.Join(lines, "\n")
}

// FlagsOfText is the flags Text wrote.
func FlagsOfText(text string) Flags {
	f := Flags{}
	for line := range strings.SplitSeq(text, "\n") {
		if name, evidence, ok := strings.Cut(line, ": "); ok {
			f[name] = evidence
		}
	}
	return f
}

// add raises flag with its evidence; a flag raised twice keeps the first.
func (f Flags) add(flag, evidence string) {
	if _, ok := f[flag]; !ok {
		f[flag] = evidence
	}
}

// Referee is the flags of a document's races: Races[run] the flags of the
// race as a whole (start skew, client load), Streams[run][provider][stream]
// each stream's, Providers[provider] those of a provider over every run
// (who answered changing).
type Referee struct {
	Races     []Flags
	Streams   [][][]Flags
	Providers []Flags
	Loads     [][]*probes.ClientLoad // [run][provider]: the load of the tpsrace that measured it (nil: not measured)
}

// RefereeOf flags races[run][provider][stream], the streams of the
// providers (for their kind) in races of workload w.
func RefereeOf(providers []config.Provider, w workload.Workload, races [][][]probes.Result) Referee {
	figs := make([][][]Figures, len(races))
	for run, race := range races {
		figs[run] = make([][]Figures, len(race))
		for p, streams := range race {
			for i := range streams {
				figs[run][p] = append(figs[run][p], Compute(&streams[i], 0))
			}
		}
	}
	return RefereeOfFigures(providers, w, races, figs)
}

// RefereeOfFigures is RefereeOf for a caller that has computed every
// stream's figures already (figs[run][provider][stream], Compute's with
// any prompt size: the flags read no price): Compute walks every event,
// and bench's report needs the figures anyway.
func RefereeOfFigures(providers []config.Provider, w workload.Workload, races [][][]probes.Result, figs [][][]Figures) Referee {
	ref := Referee{Providers: make([]Flags, len(providers))}
	ratios := make([][]float64, len(providers)) // per provider, every stream's usage ÷ o200k
	for run, race := range races {
		for p, streams := range race {
			for i := range streams {
				if r, ok := tokenRatio(&streams[i], figs[run][p][i]); ok && p < len(ratios) {
					ratios[p] = append(ratios[p], r)
				}
			}
		}
	}
	for run, race := range races {
		ref.Races = append(ref.Races, raceFlags(race))
		loads := make([]*probes.ClientLoad, len(race))
		for p := range race {
			loads[p] = providerLoad(race[p])
		}
		ref.Loads = append(ref.Loads, loads)
		streams := make([][]Flags, len(race))
		for p := range race {
			kind := ""
			if p < len(providers) {
				kind = providers[p].Kind
			}
			baseline := ratioBaseline(ratios, p) // a median of every stream: once, not once a stream
			for i := range race[p] {
				streams[p] = append(streams[p], streamFlags(&race[p][i], figs[run][p][i], kind, w, race, p, baseline))
			}
		}
		ref.Streams = append(ref.Streams, streams)
	}
	for p := range providers {
		ref.Providers[p] = servedChanges(races, p)
	}
	return ref
}

// RunFlags are the flags that touch provider p in run: the race's and
// those of any of its streams (the evidence of the first stream raising it).
func (ref Referee) RunFlags(run, p int) Flags {
	f := Flags{}
	if run >= len(ref.Races) {
		return f
	}
	for name, ev := range ref.Races[run] {
		f.add(name, ev)
	}
	if p < len(ref.Streams[run]) {
		for _, s := range ref.Streams[run][p] {
			for _, name := range s.Names() {
				f.add(name, s[name])
			}
		}
	}
	if p < len(ref.Providers) && len(ref.Providers[p]) > 0 {
		for name, ev := range ref.Providers[p] {
			f.add(name, ev)
		}
	}
	return f
}

// WorkloadRunFlags are the flags touching provider p in run of workload
// w, whose races are run·len(w.Steps()) on (the sizes of a long-context
// sweep, cached-prefix's cold and warm requests, the turns of
// multi-turn; one race for the other workloads): every one of those
// races' RunFlags (the first race raising a flag gives its evidence),
// but for the cached prompt of cached-prefix's warm request, which is
// what that workload measures, not a flaw (the cold request's still
// counts: it was not cold). load is the client load of the race that
// first raised client_saturated, else of the first race (nil: not
// measured), for the verdict's saturation rule. Bench and the dashboard
// both take a run's flags from here.
func (ref Referee) WorkloadRunFlags(w workload.Workload, run, p int) (f Flags, load *probes.ClientLoad) {
	f = Flags{}
	steps := w.Steps()
	for k, step := range steps {
		race := run*len(steps) + k
		if race >= len(ref.Races) {
			break
		}
		var l *probes.ClientLoad
		if p < len(ref.Loads[race]) {
			l = ref.Loads[race][p]
		}
		_, saturated := f[FlagClientSaturated]
		for name, ev := range ref.RunFlags(race, p) {
			if name != FlagCachedPrompt || !step.Warm {
				f.add(name, ev)
			}
		}
		if _, now := f[FlagClientSaturated]; load == nil || now && !saturated {
			load = l
		}
	}
	return f, load
}

// raceFlags: start skew, for the race as a whole. Its evidence quotes the
// skew as every view shows it (Skew.String), with the clocks' bound on a
// merged race; an unknown skew is flagged, since nothing says it was fair.
func raceFlags(race [][]probes.Result) Flags {
	f := Flags{}
	skew, ok := StartSkewOf(slices.Concat(race...))
	switch {
	case !ok || !skew.Over(StartSkewLimit):
	case !skew.Known:
		f.add(FlagStartSkew, "start skew "+skew.String()+": nothing says the requests left within "+format.Duration(StartSkewLimit))
	case skew.Spread > StartSkewLimit:
		f.add(FlagStartSkew, "start skew "+skew.String()+", over "+format.Duration(StartSkewLimit)+connectedAfterRelease(race))
	default:
		f.add(FlagStartSkew, "start skew "+skew.String()+": with the clocks' error it may be over "+format.Duration(StartSkewLimit))
	}
	return f
}

// connectedAfterRelease is what a skewed race whose streams opened their
// connections after the release can do about it, in words ("" when none
// did): a new connection is most of a stream's way to its request, and
// --warm (probes.Race.Warm) opens them before the release.
func connectedAfterRelease(race [][]probes.Result) string {
	n := 0
	for _, streams := range race {
		for i := range streams {
			if streams[i].Phases.Connected != 0 {
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return "; " + format.Plural(n, "stream") + " connected after the release (--warm connects before it)"
}

// streamFlags: what one stream saw (StreamFlags), and what only the race
// and the provider's other streams tell: a token count off the provider's
// usual ratio (baseline, NaN: too few streams to know) and a cold
// connection.
func streamFlags(r *probes.Result, fig Figures, kind string, w workload.Workload, race [][]probes.Result, p int, baseline float64) Flags {
	f := StreamFlags(r, fig, kind, w)
	if ratio, ok := tokenRatio(r, fig); ok && !math.IsNaN(baseline) && math.Abs(ratio/baseline-1) > CountMismatchShare {
		f.add(FlagCountMismatch, fmt.Sprintf("usage ÷ o200k %.2f, the provider's usual %.2f", ratio, baseline))
	}
	if cold, others := coldConnection(race, p, r); cold {
		f.add(FlagColdConnection, "opened its connection in the race (DNS/TCP/TLS) while "+strings.Join(others, ", ")+
			" reused theirs; --warm opens them before the release")
	}
	return f
}

// StreamFlags are the flags one stream raises by itself (fig is its
// Compute; kind its provider's; w the race's workload): cached_prompt,
// model_substituted (not for llama.cpp, whose server answers with the one
// model it loaded whatever the request names), client_saturated (the load
// of the tpsrace that measured it, against the stream's gap), retried,
// rate_limited, short_answer (under w's threshold). The dashboard's lanes
// show them as soon as a stream ends.
func StreamFlags(r *probes.Result, fig Figures, kind string, w workload.Workload) Flags {
	f := Flags{}
	if cached, ok := CachedPrompt(r); ok && cached > 0 {
		ev := format.Count(cached) + " prompt tokens served from the provider's cache"
		if r.Usage != nil && r.Usage.PromptTokens > 0 {
			ev = format.Count(cached) + " of " + format.Count(r.Usage.PromptTokens) + " prompt tokens served from the provider's cache"
		}
		f.add(FlagCachedPrompt, ev)
	}
	if kind != config.KindLlamaCpp && r.Served.Model != "" && !SameModel(r.Model, r.Served.Model) {
		f.add(FlagModelSubstituted, fmt.Sprintf("asked for %q, the response names %q", r.Model, r.Served.Model))
	}
	if why := saturation(r, fig); why != "" {
		f.add(FlagClientSaturated, why)
	}
	if r.Retries > 0 {
		f.add(FlagRetried, fmt.Sprintf("sent %d more times before its first byte", r.Retries))
	}
	if fl, ok := r.Err.(*probes.Failure); ok && fl.Status == 429 {
		f.add(FlagRateLimited, "answered 429")
	}
	// Only a completed stream: a failed one is short for the reason its
	// error gives, and the speeds the verdict compares are completed ones'.
	if first, ok := r.Events.First(); ok && r.OK() {
		if after, least := fig.OutputTokens-first.Tokens, w.ShortAnswerTokens(); after < least {
			f.add(FlagShortAnswer, fmt.Sprintf("%d tokens after the first event (under %d)", max(after, 0), least))
		}
		if why := oneBurst(r, fig); why != "" {
			f.add(FlagOneBurst, why)
		}
	}
	return f
}

// oneBurst is one_burst's evidence for a completed stream whose answer
// came at once (Felt.OneBurst): a proxy that buffers the answer, or a
// server that sends it whole, or a client asleep through the stream
// (client_saturated says so then). "" for any other stream.
func oneBurst(r *probes.Result, fig Figures) string {
	if !fig.Felt.OneBurst {
		return ""
	}
	first, _ := r.Events.First()
	last, _ := r.Events.Last()
	return fmt.Sprintf("all %d text events (%s tokens) arrived within %s, %s after the request: the answer came at once, not streamed, so it has no output speed",
		r.Events.Len(), format.Count(fig.OutputTokens), format.Precise(last.At-first.At), format.Duration(first.At))
}

// tokenRatio is usage's output tokens ÷ the o200k count of the text, for a
// stream with both.
func tokenRatio(r *probes.Result, fig Figures) (float64, bool) {
	if r.Usage == nil || r.Usage.CompletionTokens <= 0 || fig.O200kTokens <= 0 {
		return 0, false
	}
	return float64(r.Usage.CompletionTokens) / float64(fig.O200kTokens), true
}

// ratioBaseline is the median ratio of provider p's streams, NaN under
// CountMismatchStreams of them.
func ratioBaseline(ratios [][]float64, p int) float64 {
	if p >= len(ratios) || len(ratios[p]) < CountMismatchStreams {
		return math.NaN()
	}
	m, _ := Median(ratios[p])
	return m
}

// coldConnection: r opened a new connection in the race while some other
// provider's streams all reused theirs (named in others). Only a stream that
// completed on its first request shows reuse: a failed or retried one's last
// request reused the connection its own first request opened in this race.
func coldConnection(race [][]probes.Result, p int, r *probes.Result) (bool, []string) {
	if r.Phases.Connected == 0 {
		return false, nil
	}
	var others []string
	for q, streams := range race {
		if q == p || len(streams) == 0 {
			continue
		}
		reused := true
		for i := range streams {
			s := &streams[i]
			reused = reused && s.Err == nil && s.Retries == 0 && s.Phases.Connected == 0 && s.Phases.FirstByte > 0
		}
		if reused {
			others = append(others, streams[0].Provider)
		}
	}
	return len(others) > 0, others
}

// servedChanges: who answered provider p's streams was not always the
// same (model, system_fingerprint, OpenRouter's provider) for the same
// model asked for.
func servedChanges(races [][][]probes.Result, p int) Flags {
	f := Flags{}
	type seen struct{ models, prints, routes []string }
	byAsked := map[string]*seen{}
	var asked []string
	for _, race := range races {
		if p >= len(race) {
			continue
		}
		for _, r := range race[p] {
			s := byAsked[r.Model]
			if s == nil {
				s = &seen{}
				byAsked[r.Model] = s
				asked = append(asked, r.Model)
			}
			s.models, s.prints, s.routes = distinct(s.models, r.Served.Model), distinct(s.prints, r.Served.Fingerprint), distinct(s.routes, r.Served.Provider)
		}
	}
	var why []string
	for _, model := range asked {
		s := byAsked[model]
		for _, c := range []struct {
			field  string
			values []string
		}{{"model", s.models}, {"system_fingerprint", s.prints}, {"provider", s.routes}} {
			if len(c.values) > 1 {
				why = append(why, c.field+" changed between streams: "+strings.Join(c.values, ", "))
			}
		}
	}
	if len(why) > 0 {
		f.add(FlagModelSubstituted, strings.Join(why, "; "))
	}
	return f
}

func distinct(seen []string, v string) []string {
	if v == "" || slices.Contains(seen, v) {
		return seen
	}
	return append(seen, v)
}

// dateSuffix is a version date a provider appends to a model's name:
// gpt-4o-2024-08-06, claude-3-5-sonnet-20241022, gpt-4-0613. Compiled on
// first use, not at every command's start.
var dateSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-@_](\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$`) })

// SameModel reports whether served names the model asked for, up to the
// aliasing providers document: case, an "accounts/…/models/" or other
// path prefix (Fireworks, routers' "org/"), a date suffix, "-latest".
func SameModel(asked, served string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if i := strings.LastIndex(s, "/"); i >= 0 {
			s = s[i+1:]
		}
		s = strings.TrimSuffix(s, "-latest")
		return dateSuffix().ReplaceAllString(s, "")
	}
	return norm(asked) == norm(served)
}
