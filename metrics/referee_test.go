package metrics

import (
	"errors"
	"math"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/workload"
)

func TestSameModelAllowsDocumentedAliasing(t *testing.T) {
	for _, tc := range []struct {
		asked, served string
		same          bool
	}{
		{"gpt-4o", "gpt-4o-2024-08-06", true},
		{"claude-3-5-sonnet", "claude-3-5-sonnet-20241022", true},
		{"gpt-4", "gpt-4-0613", true},
		{"llama-v3p3-70b-instruct", "accounts/fireworks/models/llama-v3p3-70b-instruct", true},
		{"mistral-small-latest", "mistral-small-2409", true},
		{"Llama-3.3-70B-Instruct", "meta-llama/Llama-3.3-70B-Instruct", true},
		{"gpt-4o", "gpt-4o-mini", false},
		{"llama-3.3-70b-versatile", "llama-3.1-8b-instant", false},
	} {
		if got := SameModel(tc.asked, tc.served); got != tc.same {
			t.Errorf("SameModel(%q, %q) = %v", tc.asked, tc.served, got)
		}
	}
}

func TestRefereeOfRaceFlags(t *testing.T) {
	load := &probes.ClientLoad{CPU: 0.95, GOMAXPROCS: 2, WakeP95: 3 * time.Millisecond}
	stream := func(provider string, sent time.Duration, connected time.Duration) probes.Result {
		return probes.Result{Provider: provider, Model: "m", Release: time.Unix(1, 0), Sent: sent, Load: load,
			Phases: probes.Phases{Connected: connected, FirstByte: 50 * ms}, Events: probes.EventsOf(ev(60*ms, " a", 1), ev(70*ms, " b", 1)), End: 80 * ms}
	}
	races := [][][]probes.Result{{{stream("alpha", 0, 9*ms)}, {stream("bravo", 7*ms, 0)}}}
	ref := RefereeOf([]config.Provider{{Name: "alpha"}, {Name: "bravo"}}, workload.Workload{}, races)
	race := ref.Races[0]
	if _, ok := race[FlagStartSkew]; !ok {
		t.Errorf("7ms skew: %v", race)
	}
	if ev := ref.Streams[0][0][0][FlagClientSaturated]; ev != "tpsrace used 95% of 2 cores; 1 event in 20 stamped 3ms late or more (p95), over 25% of the stream's 10ms mean gap between events" {
		t.Errorf("client_saturated evidence %q", ev)
	}
	// Late stamps count against the stream's own gap (a quarter of its
	// mean gap between events, or of its TTFT with one event), and the
	// figure reads over the limit it exceeds: not "1ms, over 1ms" for a
	// p99 of 1.31ms. Events read in bursts leave the mean gap as it is.
	bursts := probes.EventsOf(ev(200*ms, "a", 1), ev(200*ms, "b", 1), ev(208*ms, "c", 1), ev(208*ms, "d", 1), ev(216*ms, "e", 1))
	oneEvent := probes.EventsOf(ev(200*ms, "a", 1))
	burst := probes.EventsOf(ev(200*ms, "a", 1), ev(200*ms+10*time.Microsecond, "b", 1)) // sent at once
	for _, c := range []struct {
		p99    time.Duration
		events probes.Events
		want   string
	}{
		{900 * time.Microsecond, bursts, ""},
		{1310 * time.Microsecond, bursts, "1 event in 20 stamped 1.3ms late or more (p95), over 25% of the stream's 4.0ms mean gap between events"},
		{1001 * time.Microsecond, bursts, "1 event in 20 stamped 1.001ms late or more (p95), over 25% of the stream's 4.0ms mean gap between events"},
		{2 * time.Second, bursts, "1 event in 20 stamped 2.00s late or more (p95), over 25% of the stream's 4.0ms mean gap between events"},
		{40 * ms, oneEvent, ""},
		{60 * ms, oneEvent, "1 event in 20 stamped 60ms late or more (p95), over 25% of the stream's 200ms TTFT"},
		{200 * time.Microsecond, burst, ""},
		{300 * time.Microsecond, burst, "1 event in 20 stamped 0.3ms late or more (p95), over 25% of the stream's 10µs mean gap between events, taken as 1ms"},
		{time.Second, probes.Events{}, ""}, // no text: nothing was stamped
	} {
		r := probes.Result{Events: c.events, Load: &probes.ClientLoad{CPU: 0.3, GOMAXPROCS: 2, WakeP95: c.p99}}
		if got := saturation(&r, Compute(&r, 0)); got != c.want {
			t.Errorf("p99 %v: client_saturated evidence %q, want %q", c.p99, got, c.want)
		}
	}
	// Refused before its first byte, in a race of 0.2 ms whose CPU share
	// read 91% (seen against a llama-server killed mid-bench).
	refused := probes.Result{Err: errors.New("connection refused"), End: 200 * time.Microsecond, Load: &probes.ClientLoad{CPU: 0.91, GOMAXPROCS: 2}}
	if got := saturation(&refused, Compute(&refused, 0)); got != "" {
		t.Errorf("a stream with nothing timed: client_saturated evidence %q, want none", got)
	}
	alpha, bravo := ref.Streams[0][0][0], ref.Streams[0][1][0]
	if _, ok := alpha[FlagColdConnection]; !ok {
		t.Errorf("alpha connected while bravo reused: %v", alpha)
	}
	if _, ok := bravo[FlagColdConnection]; ok {
		t.Errorf("bravo reused: %v", bravo)
	}
	// A provider that failed, or retried over the connection its first
	// request opened, reused nothing another lane could have.
	failed, retried := stream("charlie", 0, 0), stream("delta", 0, 0)
	failed.Err, retried.Retries = errors.New("500"), 1
	for _, other := range []probes.Result{failed, retried} {
		cold := RefereeOf([]config.Provider{{Name: "alpha"}, {Name: other.Provider}}, workload.Workload{}, [][][]probes.Result{{{stream("alpha", 0, 9*ms)}, {other}}})
		if ev, ok := cold.Streams[0][0][0][FlagColdConnection]; ok {
			t.Errorf("alpha flagged cold beside %s: %s", other.Provider, ev)
		}
	}
	if ev := alpha[FlagShortAnswer]; ev != "1 tokens after the first event (under 20)" {
		t.Errorf("short_answer %q", ev)
	}
	if got := ref.RunFlags(0, 1).Names(); len(got) != 3 {
		t.Errorf("bravo's run: %v, want client_saturated, short_answer, start_skew", got)
	}
}

// short_answer fires only where a short answer can bend the verdict:
// chat's output speed; a json answer is short by design.
func TestShortAnswerIsTheWorkloads(t *testing.T) {
	short := probes.Result{Provider: "alpha", Model: "m", Events: probes.EventsOf(ev(60*ms, "{", 1), ev(70*ms, "}", 1)), End: 80 * ms, FinishReason: "stop"}
	for _, name := range workload.Names {
		w, _ := workload.Named(name)
		f := StreamFlags(&short, Compute(&short, 0), "", w)
		if _, flagged := f[FlagShortAnswer]; flagged != (name == workload.Chat) {
			t.Errorf("%s: short_answer %v (%q); want it only on chat, whose verdict is on output speed", name, flagged, f[FlagShortAnswer])
		}
	}
	// Cut short by a stall: its error says why it is short.
	chat, _ := workload.Named(workload.Chat)
	stalled := short
	stalled.Err = &probes.Failure{Kind: probes.KindTimeout, Message: "stalled 300ms after 2 tokens"}
	if ev, flagged := StreamFlags(&stalled, Compute(&stalled, 0), "", chat)[FlagShortAnswer]; flagged {
		t.Errorf("a failed stream flagged short_answer: %q", ev)
	}
}

// A workload run's flags are those of every race it made, bar the cached
// prompt of cached-prefix's warm request: that is what it measures.
func TestWorkloadRunFlagsCoverEveryStep(t *testing.T) {
	busy := &probes.ClientLoad{CPU: 0.95, GOMAXPROCS: 2}
	ref := Referee{
		Races: []Flags{{}, {}, {FlagStartSkew: "skew"}, {}},
		Streams: [][][]Flags{
			{{{FlagCachedPrompt: "cold cached"}}}, {{{FlagCachedPrompt: "warm cached"}}}, // run 0: cold, warm
			{{{}}}, {{{FlagClientSaturated: "busy", FlagCachedPrompt: "warm cached"}}}, // run 1
		},
		Providers: []Flags{{}},
		Loads:     [][]*probes.ClientLoad{{nil}, {nil}, {{CPU: 0.1}}, {busy}},
	}
	cachedPrefix, _ := workload.Named(workload.CachedPrefix)
	cachedPrefix.InputTokens = []int{2000}
	for _, tc := range []struct {
		run  int
		want string
		load *probes.ClientLoad
	}{
		{0, "cached_prompt: cold cached", nil},
		{1, "client_saturated: busy\nstart_skew: skew", busy},
	} {
		f, load := ref.WorkloadRunFlags(cachedPrefix, tc.run, 0)
		if f.Text() != tc.want || load != tc.load {
			t.Errorf("cached-prefix run %d: %q (load %v), want %q (load %v)", tc.run, f.Text(), load, tc.want, tc.load)
		}
	}
	chat, _ := workload.Named(workload.Chat)
	if f, _ := ref.WorkloadRunFlags(chat, 1, 0); f.Text() != "cached_prompt: warm cached" {
		t.Errorf("chat's run 1 is the second race, a cached prompt like any other: %q", f.Text())
	}
	if f, _ := ref.WorkloadRunFlags(chat, 4, 0); len(f) != 0 {
		t.Errorf("a run past the races has no flags: %v", f)
	}
}

func TestWhatExplainsTheMargin(t *testing.T) {
	if !explains(FlagModelSubstituted, false, VerdictMetric) || !explains(FlagModelSubstituted, false, JSONMetric) || !explains(FlagShortAnswer, true, VerdictMetric) {
		t.Error("who answered bends any figure, a short answer the output speed")
	}
	for _, m := range []string{FinishMetric, JSONMetric, ToolCallMetric, WarmMetric, ConversationMetric, PrefillMetric} {
		if explains(FlagShortAnswer, true, m) || explains(FlagCountMismatch, false, m) {
			t.Errorf("%s is a time: a short answer or another tokenizer leaves it as it is", m)
		}
		if !explains(FlagCachedPrompt, true, m) || explains(FlagCachedPrompt, false, m) {
			t.Errorf("%s is timed from the request: a cached prompt explains a win of the cached one", m)
		}
		if !explains(FlagColdConnection, false, m) || explains(FlagColdConnection, true, m) || !explains(FlagStartSkew, true, m) {
			t.Errorf("%s is timed from the request: a cold connection explains a loss of the cold one, skew either", m)
		}
		if !explains(FlagOneBurst, false, m) || explains(FlagOneBurst, true, m) {
			t.Errorf("%s is timed from the request: an answer held back explains a loss of the held one", m)
		}
	}
	if explains(FlagCachedPrompt, true, VerdictMetric) || explains(FlagColdConnection, false, VerdictMetric) || explains(FlagStartSkew, true, VerdictMetric) {
		t.Error("the output speed starts at the first token: nothing before it bends it")
	}
	// Goroutines 1 ms late over a 1 s span bend a speed by 0.2% at most.
	late := &probes.ClientLoad{CPU: 0.3, WakeP95: 2 * time.Millisecond}
	if saturationExplains(late, 1.5, time.Second) || !saturationExplains(late, 1.003, time.Second) {
		t.Error("scheduling lateness explains only a margin within 2 × p99 ÷ span")
	}
	if !saturationExplains(&probes.ClientLoad{CPU: 0.97, WakeP95: 0}, 3, time.Second) || !saturationExplains(&probes.ClientLoad{CPU: math.NaN(), WakeP95: 2 * time.Second}, 3, time.Second) {
		t.Error("a saturated CPU explains any margin")
	}
}

// The verdict's text names every flagged contender, each cause once.
func TestFlaggedTextNamesEveryFlaggedContender(t *testing.T) {
	c := func(name string, speed float64, flags ...Flags) Contender {
		return Contender{Name: name, Speeds: []float64{speed, speed}, TTFT: []time.Duration{ms, ms}, Total: []time.Duration{2 * ms, 2 * ms}, Flags: flags}
	}
	short := Flags{FlagShortAnswer: "3 tokens"}
	busy := Flags{FlagClientSaturated: "late"}
	both := Flags{FlagShortAnswer: "3 tokens", FlagClientSaturated: "late"}
	v := Decide([]Contender{c("a", 9, both, short), c("b", 8, busy, short), c("c", 7, busy, Flags{}), c("d", 6, busy, short)}, 0)
	want := "saturated client in 1/2 runs; a gave short answers in 2/2 runs, b and d in 1/2 runs"
	if got := v.FlaggedText(); got != want {
		t.Errorf("FlaggedText %q, want %q", got, want)
	}
	v = Decide([]Contender{c("a", 9, short, short), c("b", 8), c("c", 7, short, Flags{}), c("d", 6, Flags{}, short)}, 0)
	want = "a gave short answers in 2/2 runs, c and d in 1/2 runs"
	if got := v.FlaggedText(); got != want {
		t.Errorf("FlaggedText %q, want %q", got, want)
	}
}

// Saturation reads a race's load whatever its streams: against the least
// gap a stream is given, MinGap.
func TestSaturationOfALoad(t *testing.T) {
	for _, c := range []struct {
		load *probes.ClientLoad
		want string
	}{
		{nil, ""},
		{&probes.ClientLoad{CPU: 0.3, GOMAXPROCS: 2, WakeP95: 200 * time.Microsecond}, ""},
		{&probes.ClientLoad{CPU: 0.3, GOMAXPROCS: 2, WakeP95: 400 * time.Microsecond}, "1 event in 20 stamped 0.4ms late or more (p95), over 25% of the least gap a stream is given, 1ms"},
		{&probes.ClientLoad{CPU: 0.95, GOMAXPROCS: 2}, "tpsrace used 95% of 2 cores"},
	} {
		if got := Saturation(c.load); got != c.want {
			t.Errorf("Saturation(%+v) = %q, want %q", c.load, got, c.want)
		}
	}
}
