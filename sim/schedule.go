package sim

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Prefix starts every model name the simulator serves.
const Prefix = "sim:"

// Reasoning fields (rfield).
const (
	FieldReasoningContent = "reasoning_content"
	FieldReasoning        = "reasoning"
	FieldThink            = "think" // inline <think>…</think> in content
	// FieldHidden: the reasoning is decoded on the clock but never sent, as
	// o-series, Gemini and Grok models think; usage still counts it.
	FieldHidden = "hidden"
)

// Usage modes.
const (
	UsageFinal      = "final"
	UsageFinish     = "finish"
	UsageXGroq      = "xgroq"
	UsageCumulative = "cumulative"
	UsageNone       = "none"
)

// Faults that act inside a 200 stream (the status faults are their codes).
const (
	FaultError      = "error"
	FaultEventError = "event-error"
	FaultClose      = "close"
	FaultStall      = "stall"
	FaultEndless    = "endless"
	FaultBadJSON    = "badjson"
	FaultBigChunk   = "bigchunk"
	FaultNobody     = "nobody"
	FaultHTML       = "html"
	FaultEcho       = "echo"
)

// Schedule is what one sim: model name asks for. See the package doc for
// the meaning and default of every field's key.
type Schedule struct {
	TTFT           time.Duration // ttft
	TPS            float64       // tps
	Tokens         int           // tokens
	Chunk          int           // chunk
	Jitter         float64       // jitter
	Seed           uint64        // seed
	Reasoning      int           // reasoning
	ReasoningField string        // rfield
	Usage          string        // usage
	Keepalive      time.Duration // keepalive; 0 = none
	Timings        bool          // timings
	NoSpace        bool          // nospace
	Gzip           bool          // gzip
	Buffered       bool          // buffered
	Framing        Framing       // framing
	Done           bool          // done
	Role           bool          // role
	ExclReasoning  bool          // excl_reasoning
	Contention     float64       // contention
	Batch          int           // batch: decode slots; 0 = as many as there are streams
	Fault          string        // fault; "" = none
	After          int           // after
	RetryAfter     int           // retry_after, seconds; 0 = no header
	Cached         int           // cached
	Served         string        // served; "" = the requested model name
	Fingerprint    string        // fingerprint
	Route          string        // route; "" = no "provider" field
	Tool           string        // tool: the shape of a tool call, when the request offers a function; "" = split
	Prefill        float64       // prefill: prompt tokens per second added to ttft; 0 = none
	CacheMin       int           // prefixcache: a prefix cache for prompts of at least this many tokens (a repeat is cached whole); 0 = none
	Pause          time.Duration // pause=DUR@K: the gap before text event K is DUR
	PauseAt        int           // K of pause; 0 = no pause
}

var defaultSchedule = Schedule{
	TTFT: 200 * time.Millisecond, TPS: 100, Tokens: 256, Chunk: 1,
	ReasoningField: FieldReasoningContent, Usage: UsageFinal, Done: true, Role: true, Fingerprint: "tpsrace-sim",
}

// profiles are the demo's simulated providers, written in the model-name
// grammar. Each models a class of hardware: its speed, how chunky its
// stream is, how much its gaps vary, how much it slows per extra stream,
// how fast it reads a prompt (prefill; a chat prompt costs it under 5 ms),
// so that a long-context race has a prefill speed to estimate without a
// config, and a prefix cache for prompts of 1,024 tokens or more (OpenAI's,
// Groq's and Cerebras' threshold), so that a cached-prefix race has a
// saving and cached tokens to show: usage.prompt_tokens_details.cached_tokens,
// and the laptop's llama-server timings.cache_n. A chat prompt is too short
// to be cached, so re-racing it is not reported cached (nor flagged); the
// laptop's llama-server would itself reuse any prompt its slot has seen.
//
// Their batching (contention, batch; see Slowdown) gives a concurrency
// sweep a trade-off to show. The gpu is the seed's shape at its own speed:
// a 70B model on one GPU streams about 30 tok/s to one user and 1,500 tok/s
// to 64 (each user 1.28× slower), so 120 tok/s alone and about 6,000 at 64
// (94 each), its knee at its 64 decode slots. The wafer and the lpu barely
// slow (1.14× and 1.45× across their batch) but have few slots, 8 and 16:
// the fastest per user, they saturate first. The laptop's llama-server
// runs 4 slots and slows 10% per extra stream.
var profiles = map[string]string{
	"wafer":  "ttft=250ms,tps=1800,tokens=600,chunk=4,jitter=0.3,seed=1,contention=0.02,batch=8,prefill=40000,prefixcache=1024",
	"lpu":    "ttft=150ms,tps=800,tokens=600,chunk=2,jitter=0.2,seed=2,usage=xgroq,contention=0.03,batch=16,prefill=20000,prefixcache=1024",
	"gpu":    "ttft=400ms,tps=120,tokens=500,jitter=0.35,seed=3,contention=0.0045,batch=64,prefill=8000,prefixcache=1024",
	"laptop": "ttft=600ms,tps=25,tokens=160,jitter=0.15,seed=4,timings=1,contention=0.1,batch=4,prefill=3000,prefixcache=1024",
}

// Profiles lists the profile names, sorted.
func Profiles() []string { return slices.Sorted(maps.Keys(profiles)) }

var statusFaults = slices.Sorted(maps.Keys(statusErrors))

// errorBodyFaults answer an error status with a body in a provider's own shape.
var errorBodyFaults = slices.Sorted(maps.Keys(errorBodies))

// faultsWithAfter are the faults that first send `after` tokens.
var faultsWithAfter = []string{FaultError, FaultEventError, FaultClose, FaultStall, FaultBadJSON, FaultBigChunk}

var allFaults = append(slices.Concat(statusFaults, errorBodyFaults),
	FaultError, FaultEventError, FaultClose, FaultStall, FaultEndless,
	FaultBadJSON, FaultBigChunk, FaultNobody, FaultHTML, FaultEcho)

// keys parse one value each into a Schedule.
var keys = map[string]func(s *Schedule, v string) error{
	"ttft":      func(s *Schedule, v string) error { return parseDuration(v, &s.TTFT) },
	"tps":       func(s *Schedule, v string) error { return parseFloat(v, 0, math.Inf(1), false, &s.TPS) },
	"tokens":    func(s *Schedule, v string) error { return parseInt(v, 0, &s.Tokens) },
	"chunk":     func(s *Schedule, v string) error { return parseInt(v, 1, &s.Chunk) },
	"jitter":    func(s *Schedule, v string) error { return parseFloat(v, 0, 1, true, &s.Jitter) },
	"seed":      func(s *Schedule, v string) error { return parseSeed(v, &s.Seed) },
	"reasoning": func(s *Schedule, v string) error { return parseInt(v, 0, &s.Reasoning) },
	"rfield": func(s *Schedule, v string) error {
		return parseEnum(v, &s.ReasoningField, FieldReasoningContent, FieldReasoning, FieldThink, FieldHidden)
	},
	"usage": func(s *Schedule, v string) error {
		return parseEnum(v, &s.Usage, UsageFinal, UsageFinish, UsageXGroq, UsageCumulative, UsageNone)
	},
	"keepalive":      func(s *Schedule, v string) error { return parseDuration(v, &s.Keepalive) },
	"timings":        func(s *Schedule, v string) error { return parseBool(v, &s.Timings) },
	"nospace":        func(s *Schedule, v string) error { return parseBool(v, &s.NoSpace) },
	"gzip":           func(s *Schedule, v string) error { return parseBool(v, &s.Gzip) },
	"buffered":       func(s *Schedule, v string) error { return parseBool(v, &s.Buffered) },
	"framing":        func(s *Schedule, v string) error { return parseFraming(v, &s.Framing) },
	"done":           func(s *Schedule, v string) error { return parseBool(v, &s.Done) },
	"role":           func(s *Schedule, v string) error { return parseBool(v, &s.Role) },
	"excl_reasoning": func(s *Schedule, v string) error { return parseBool(v, &s.ExclReasoning) },
	"contention":     func(s *Schedule, v string) error { return parseFloat(v, 0, math.Inf(1), true, &s.Contention) },
	"batch":          func(s *Schedule, v string) error { return parseInt(v, 0, &s.Batch) },
	"fault":          func(s *Schedule, v string) error { return parseEnum(v, &s.Fault, allFaults...) },
	"after":          func(s *Schedule, v string) error { return parseInt(v, 0, &s.After) },
	"retry_after":    func(s *Schedule, v string) error { return parseInt(v, 1, &s.RetryAfter) },
	"cached":         func(s *Schedule, v string) error { return parseInt(v, 0, &s.Cached) },
	"served":         func(s *Schedule, v string) error { return parseName(v, &s.Served) },
	"fingerprint":    func(s *Schedule, v string) error { return parseName(v, &s.Fingerprint) },
	"route":          func(s *Schedule, v string) error { return parseName(v, &s.Route) },
	"tool":           func(s *Schedule, v string) error { return parseEnum(v, &s.Tool, toolShapes...) },
	"prefill":        func(s *Schedule, v string) error { return parseFloat(v, 0, math.Inf(1), false, &s.Prefill) },
	"prefixcache":    func(s *Schedule, v string) error { return parseInt(v, 0, &s.CacheMin) },
	"pause":          func(s *Schedule, v string) error { return parsePause(v, s) },
}

// ParseSchedule reads a "sim:..." model name (grammar in the package doc).
func ParseSchedule(model string) (Schedule, error) {
	spec, ok := strings.CutPrefix(model, Prefix)
	if !ok {
		return Schedule{}, fmt.Errorf("model %q is not a simulated model (want %q...)", model, Prefix)
	}
	s := defaultSchedule
	items := strings.Split(spec, ",")
	if spec == "" {
		items = nil
	}
	if len(items) > 0 && !strings.Contains(items[0], "=") {
		profile, ok := profiles[items[0]]
		if !ok {
			return Schedule{}, fmt.Errorf("model %q: unknown profile %q (profiles: %s)", model, items[0], strings.Join(Profiles(), ", "))
		}
		if err := s.apply(strings.Split(profile, ","), map[string]bool{}); err != nil {
			panic("sim: profile " + items[0] + ": " + err.Error())
		}
		items = items[1:]
	}
	given := map[string]bool{}
	if err := s.apply(items, given); err != nil {
		return Schedule{}, fmt.Errorf("model %q: %w", model, err)
	}
	if err := s.check(given); err != nil {
		return Schedule{}, fmt.Errorf("model %q: %w", model, err)
	}
	return s, nil
}

// apply sets each key=value of items, recording the keys in given.
func (s *Schedule) apply(items []string, given map[string]bool) error {
	for _, item := range items {
		key, value, ok := strings.Cut(item, "=")
		if !ok {
			return fmt.Errorf("%q is not key=value (a profile may only come first)", item)
		}
		set, known := keys[key]
		if !known {
			return fmt.Errorf("unknown key %q (keys: %s)", key, strings.Join(slices.Sorted(maps.Keys(keys)), ", "))
		}
		if given[key] {
			return fmt.Errorf("key %q given twice", key)
		}
		given[key] = true
		if err := set(s, value); err != nil {
			return fmt.Errorf("%s=%q: %w", key, value, err)
		}
	}
	return nil
}

// check rejects keys that mean nothing with the chosen fault.
func (s *Schedule) check(given map[string]bool) error {
	if given["after"] && !slices.Contains(faultsWithAfter, s.Fault) {
		return fmt.Errorf("after= needs fault=%s", strings.Join(faultsWithAfter, "|"))
	}
	if s.RetryAfter > 0 && !slices.Contains(statusFaults, s.Fault) {
		return fmt.Errorf("retry_after= needs fault=%s", strings.Join(statusFaults, "|"))
	}
	return nil
}

func parseDuration(v string, dst *time.Duration) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration like 250ms")
	}
	*dst = d
	return nil
}

// parseFloat accepts lo < v <= hi, or lo <= v <= hi when loIncluded.
func parseFloat(v string, lo, hi float64, loIncluded bool, dst *float64) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || f > hi || f < lo || (f == lo && !loIncluded) {
		if math.IsInf(hi, 1) {
			if loIncluded {
				return fmt.Errorf("want a number >= %g", lo)
			}
			return fmt.Errorf("want a number > %g", lo)
		}
		return fmt.Errorf("want a number from %g to %g", lo, hi)
	}
	*dst = f
	return nil
}

func parseInt(v string, lo int, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo {
		return fmt.Errorf("want a whole number >= %d", lo)
	}
	*dst = n
	return nil
}

func parseSeed(v string, dst *uint64) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return fmt.Errorf("want a whole number >= 0")
	}
	*dst = n
	return nil
}

func parseBool(v string, dst *bool) error {
	switch v {
	case "0":
		*dst = false
	case "1":
		*dst = true
	default:
		return fmt.Errorf("want 0 or 1")
	}
	return nil
}

// parsePause reads DUR@K, K >= 1 (the first event, 0, comes at ttft).
func parsePause(v string, s *Schedule) error {
	d, k, ok := strings.Cut(v, "@")
	if !ok || parseDuration(d, &s.Pause) != nil || parseInt(k, 1, &s.PauseAt) != nil {
		return fmt.Errorf("want DURATION@EVENT like 400ms@10 (event 1 or later)")
	}
	return nil
}

// parseName accepts any non-empty text (a model name, a fingerprint).
func parseName(v string, dst *string) error {
	if v == "" {
		return fmt.Errorf("want a name")
	}
	*dst = v
	return nil
}

func parseEnum(v string, dst *string, allowed ...string) error {
	if !slices.Contains(allowed, v) {
		return fmt.Errorf("want one of %s", strings.Join(allowed, ", "))
	}
	*dst = v
	return nil
}

// statusFault reports whether the fault is answered before any stream.
func (s Schedule) statusFault() bool {
	return slices.Contains(statusFaults, s.Fault) || slices.Contains(errorBodyFaults, s.Fault) || s.Fault == FaultHTML || s.Fault == FaultEcho
}

// cutsStream reports whether the fault replaces the end of the stream, after `after` tokens.
func (s Schedule) cutsStream() bool {
	switch s.Fault {
	case FaultError, FaultEventError, FaultClose, FaultStall:
		return true
	}
	return false
}

// plan is what one request will send, fixed at receipt.
type plan struct {
	total     int    // reasoning + answer tokens to send (unbounded when endless)
	reasoning int    // of which reasoning, sent first
	finish    string // finish_reason: "stop", or "length" when max_tokens cut it
	endless   bool
}

// plan applies the request's max_tokens (<= 0: none) and the fault's cut.
func (s Schedule) plan(maxTokens int) plan {
	p := plan{total: s.Reasoning + s.Tokens, finish: "stop", endless: s.Fault == FaultEndless}
	if maxTokens > 0 && maxTokens < p.total {
		p.total, p.finish = maxTokens, "length"
	}
	if s.cutsStream() {
		p.total = min(p.total, s.After)
	}
	p.reasoning = min(s.Reasoning, p.total)
	return p
}

// EventOffsets returns the send offset of each text event, from the request's
// receipt, for a request with this max_tokens (<= 0: none), following the
// exact timing rule of the package doc (without contention, which depends on
// the other streams running). It is nil for fault=endless, which never ends.
// With rfield=hidden the reasoning's events are in it, on the clock, though
// nothing is sent at their offsets.
func (s Schedule) EventOffsets(maxTokens int) []time.Duration {
	p := s.plan(maxTokens)
	if p.endless {
		return nil
	}
	return p.offsets(s.Chunk, s.newClock(s.Seed), func() float64 { return 1 })
}

// offsets returns the send offset of each text event of p (the plan of a
// request that ends), each gap stretched by slowdown.
func (p plan) offsets(chunk int, clk *clock, slowdown func() float64) []time.Duration {
	var offsets []time.Duration
	for sent := 0; sent < p.total; {
		n := min(chunk, p.total-sent)
		offsets = append(offsets, clk.next(n, slowdown()))
		sent += n
	}
	return offsets
}

// clock turns events into send offsets. The offsets are computed from a sum
// of token counts, not of durations, so without jitter or contention they
// are exact (ns) whatever the number of events.
type clock struct {
	ttft    time.Duration
	tps     float64
	jitter  float64
	rng     *rand.Rand
	started bool
	first   time.Duration // offset of the first event
	units   float64       // tokens after the first event, each × its gap's factor

	prefill time.Duration // added to the first offset, unstretched (the prompt's prefill)

	pause   time.Duration // the gap before event pauseAt (0: no pause)
	pauseAt int
	events  int           // text events so far
	last    time.Duration // offset of the latest one
	shift   time.Duration // what the pause added to every later offset
}

func (s Schedule) newClock(seed uint64) *clock {
	return &clock{ttft: s.TTFT, tps: s.TPS, jitter: s.Jitter, rng: rand.New(rand.NewPCG(seed, 0)), pause: s.Pause, pauseAt: s.PauseAt}
}

// next returns the offset of the next event, which carries n tokens (the
// first event's n does not matter: it comes at ttft). slowdown stretches the
// gap before it (1 = none).
//
// The gap before event pauseAt is pause instead (the end, n = 0, is not an
// event), and every later offset moves by what that added.
func (c *clock) next(n int, slowdown float64) time.Duration {
	factor := slowdown
	if c.jitter > 0 {
		factor *= 1 + c.jitter*(2*c.rng.Float64()-1)
	}
	if !c.started {
		c.started = true
		c.first = time.Duration(math.Round(float64(c.ttft)*factor)) + c.prefill
		c.events, c.last = 1, c.first
		return c.first
	}
	c.units += float64(n) * factor
	at := c.first + time.Duration(math.Round(c.units*float64(time.Second)/c.tps)) + c.shift
	if n > 0 && c.pauseAt > 0 && c.events == c.pauseAt {
		c.shift += c.last + c.pause - at
		at = c.last + c.pause
	}
	if n > 0 {
		c.events, c.last = c.events+1, at
	}
	return at
}
