package sim

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/tokens"
)

func TestParseScheduleDefaults(t *testing.T) {
	for _, model := range []string{"sim:", "sim:ttft=200ms"} {
		s, err := ParseSchedule(model)
		if err != nil {
			t.Fatal(err)
		}
		if s != defaultSchedule {
			t.Errorf("%s = %+v, want the defaults %+v", model, s, defaultSchedule)
		}
	}
	want := Schedule{TTFT: 200 * time.Millisecond, TPS: 100, Tokens: 256, Chunk: 1, ReasoningField: "reasoning_content", Usage: "final", Done: true, Role: true, Fingerprint: "tpsrace-sim"}
	if defaultSchedule != want {
		t.Errorf("defaults = %+v, want the documented %+v", defaultSchedule, want)
	}
}

func TestParseScheduleEveryKey(t *testing.T) {
	s, err := ParseSchedule("sim:ttft=1.5s,tps=42.5,tokens=10,chunk=3,jitter=0.5,seed=7,reasoning=4,rfield=think," +
		"usage=xgroq,keepalive=5s,timings=1,nospace=1,done=0,role=0,excl_reasoning=1,contention=0.1,batch=6," +
		"cached=30,served=other-model-2025-01-01,fingerprint=fp_x,route=Google,pause=300ms@4,prefill=500.5,prefixcache=2048")
	if err != nil {
		t.Fatal(err)
	}
	want := Schedule{TTFT: 1500 * time.Millisecond, TPS: 42.5, Tokens: 10, Chunk: 3, Jitter: 0.5, Seed: 7, Reasoning: 4,
		ReasoningField: FieldThink, Usage: UsageXGroq, Keepalive: 5 * time.Second, Timings: true, NoSpace: true,
		ExclReasoning: true, Contention: 0.1, Batch: 6, Cached: 30, Served: "other-model-2025-01-01", Fingerprint: "fp_x", Route: "Google",
		Pause: 300 * time.Millisecond, PauseAt: 4, Prefill: 500.5, CacheMin: 2048}
	if s != want {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}

	s, err = ParseSchedule("sim:fault=429,retry_after=3")
	if err != nil || s.Fault != "429" || s.RetryAfter != 3 {
		t.Errorf("fault=429,retry_after=3: %+v, %v", s, err)
	}
	s, err = ParseSchedule("sim:fault=error,after=5")
	if err != nil || s.Fault != FaultError || s.After != 5 {
		t.Errorf("fault=error,after=5: %+v, %v", s, err)
	}
}

func TestParseScheduleProfiles(t *testing.T) {
	if got := Profiles(); !slices.Equal(got, []string{"gpu", "laptop", "lpu", "wafer"}) {
		t.Errorf("Profiles() = %v", got)
	}
	for _, p := range Profiles() {
		s, err := ParseSchedule("sim:" + p)
		if err != nil {
			t.Fatalf("profile %s: %v", p, err)
		}
		if s.Jitter == 0 || s.Contention == 0 {
			t.Errorf("profile %s: want jitter and contention for a realistic demo, got %+v", p, s)
		}
	}
	wafer, _ := ParseSchedule("sim:wafer")
	if wafer.TPS != 1800 || wafer.TTFT != 250*time.Millisecond {
		t.Errorf("wafer = %+v", wafer)
	}
	// Keys after the profile override it and leave the rest.
	s, err := ParseSchedule("sim:wafer,tps=10,contention=0")
	if err != nil {
		t.Fatal(err)
	}
	want := wafer
	want.TPS, want.Contention = 10, 0
	if s != want {
		t.Errorf("override: got %+v, want %+v", s, want)
	}
}

func TestParseScheduleErrors(t *testing.T) {
	for _, tc := range []struct{ model, want string }{
		{"gpt-4o", `not a simulated model`},
		{"sim:turbo", `unknown profile "turbo" (profiles: gpu, laptop, lpu, wafer)`},
		{"sim:tps=1,wafer", `"wafer" is not key=value (a profile may only come first)`},
		{"sim:speed=1", `unknown key "speed" (keys: after, batch, buffered, cached, chunk,`},
		{"sim:tps=0", `tps="0": want a number > 0`},
		{"sim:tps=fast", `tps="fast": want a number > 0`},
		{"sim:jitter=2", `jitter="2": want a number from 0 to 1`},
		{"sim:chunk=0", `chunk="0": want a whole number >= 1`},
		{"sim:tokens=-1", `tokens="-1": want a whole number >= 0`},
		{"sim:ttft=soon", `ttft="soon": want a duration like 250ms`},
		{"sim:ttft=-1s", `ttft="-1s": want a duration`},
		{"sim:usage=sometimes", `usage="sometimes": want one of final, finish, xgroq, cumulative, none`},
		{"sim:done=yes", `done="yes": want 0 or 1`},
		{"sim:seed=-3", `seed="-3": want a whole number >= 0`},
		{"sim:tps=1,tps=2", `key "tps" given twice`},
		{"sim:pause=400ms", `pause="400ms": want DURATION@EVENT like 400ms@10 (event 1 or later)`},
		{"sim:pause=400ms@0", `pause="400ms@0": want DURATION@EVENT`},
		{"sim:fault=teapot", `fault="teapot": want one of 401, 403,`},
		{"sim:after=3", `after= needs fault=error|event-error|close|stall|badjson|bigchunk`},
		{"sim:fault=500,after=3", `after= needs fault=`},
		{"sim:fault=error,retry_after=2", `retry_after= needs fault=401|403|404|429|500|503`},
	} {
		_, err := ParseSchedule(tc.model)
		if err == nil {
			t.Errorf("%s: no error", tc.model)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.model) {
			t.Errorf("%s: error %q, want it to name the model and say %q", tc.model, err, tc.want)
		}
	}
}

func ms(v ...float64) []time.Duration {
	var out []time.Duration
	for _, x := range v {
		out = append(out, time.Duration(x*float64(time.Millisecond)))
	}
	return out
}

func mustParse(t testing.TB, model string) Schedule {
	t.Helper()
	s, err := ParseSchedule(model)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEventOffsetsExact(t *testing.T) {
	for _, tc := range []struct {
		model     string
		maxTokens int
		want      []time.Duration
	}{
		{"sim:ttft=200ms,tps=100,tokens=5", 0, ms(200, 210, 220, 230, 240)},
		// Events of 3, 3, 3 and 1 tokens: the short last one is due as soon as its one token is.
		{"sim:ttft=200ms,tps=100,tokens=10,chunk=3", 0, ms(200, 230, 260, 270)},
		{"sim:ttft=200ms,tps=100,tokens=10,chunk=3", 4, ms(200, 210)},
		{"sim:ttft=0s,tps=100,tokens=3,reasoning=2", 0, ms(0, 10, 20, 30, 40)},
		{"sim:ttft=1s,tokens=2,chunk=5", 0, ms(1000)},
		{"sim:tokens=0", 0, nil},
		{"sim:tokens=9,fault=error,after=3", 0, ms(200, 210, 220)},
		{"sim:fault=endless", 0, nil},
		// A planned pause: event 2 comes 400ms after event 1; the rest keep their rhythm.
		{"sim:ttft=10ms,tps=100,tokens=5,pause=400ms@2", 0, ms(10, 20, 420, 430, 440)},
		{"sim:ttft=10ms,tps=100,tokens=6,chunk=2,pause=1s@1", 0, ms(10, 1010, 1030)},
		{"sim:ttft=10ms,tps=100,tokens=3,pause=1s@3", 0, ms(10, 20, 30)}, // no event 3: no pause
	} {
		if got := mustParse(t, tc.model).EventOffsets(tc.maxTokens); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s max %d: offsets %v, want %v", tc.model, tc.maxTokens, got, tc.want)
		}
	}
}

// The point of the rule: (tokens after the first event) / (last − first) is
// tps, for any length, chunk and speed.
func TestEventOffsetsGiveExactSpeed(t *testing.T) {
	for _, tps := range []float64{1, 7, 25, 100, 333.3, 1800, 1e5} {
		for _, chunk := range []int{1, 2, 3, 7, 16} {
			for _, n := range []int{chunk + 1, 2*chunk + 1, 97, 1000} {
				s := Schedule{TTFT: 123 * time.Millisecond, TPS: tps, Tokens: n, Chunk: chunk}
				offs := s.EventOffsets(0)
				if len(offs) != (n+chunk-1)/chunk || offs[0] != s.TTFT {
					t.Fatalf("tps %g chunk %d n %d: %d events, first at %v", tps, chunk, n, len(offs), offs[0])
				}
				got := float64(n-chunk) / (offs[len(offs)-1] - offs[0]).Seconds()
				if math.Abs(got-tps)/tps > 1e-6 {
					t.Errorf("tps %g chunk %d n %d: measured %.9g", tps, chunk, n, got)
				}
			}
		}
	}
}

func TestEventOffsetsJitter(t *testing.T) {
	s := mustParse(t, "sim:ttft=100ms,tps=100,tokens=200,jitter=0.5,seed=9")
	a, b := s.EventOffsets(0), s.EventOffsets(0)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different offsets")
	}
	s.Seed = 10
	if reflect.DeepEqual(a, s.EventOffsets(0)) {
		t.Error("another seed gave the same offsets")
	}
	// Each gap is nominal × (1 ± jitter); ttft included.
	const nominal = 10 * time.Millisecond
	if a[0] < 50*time.Millisecond || a[0] > 150*time.Millisecond {
		t.Errorf("first event at %v, want 100ms ± 50%%", a[0])
	}
	distinct := map[time.Duration]bool{}
	for i := 1; i < len(a); i++ {
		gap := a[i] - a[i-1]
		if gap < nominal/2-time.Microsecond || gap > nominal*3/2+time.Microsecond {
			t.Fatalf("gap %d = %v, want 10ms ± 50%%", i, gap)
		}
		distinct[gap.Round(100*time.Microsecond)] = true
	}
	if len(distinct) < 20 {
		t.Errorf("only %d distinct gaps: jitter is not varying them", len(distinct))
	}
}

func TestVocabularyIsOneTokenPerWord(t *testing.T) {
	distinct := map[string]bool{}
	for _, w := range words() {
		if n := tokens.Count(w); n != 1 {
			t.Errorf("%q is %d o200k tokens, want 1", w, n)
		}
		distinct[w] = true
	}
	if len(distinct) < 100 {
		t.Errorf("%d distinct words, want a real vocabulary", len(distinct))
	}
	// Joined, the words still split at every one: a whole answer counts as scheduled.
	for _, n := range []int{1, 17, len(words()), 1000} {
		if got := tokens.Count(text(0, n)); got != n {
			t.Errorf("%d words count %d o200k tokens", n, got)
		}
		if got := tokens.Count(text(n, 2*n)); got != n {
			t.Errorf("words [%d, %d) count %d o200k tokens", n, 2*n, got)
		}
	}
}

func TestDemoProviders(t *testing.T) {
	const url = "http://127.0.0.1:1234/v1"
	providers := DemoProviders(url)
	var names []string
	for _, p := range providers {
		names = append(names, p.Name)
		if p.Kind != config.KindOpenAI || p.BaseURL != url || p.Price == nil || !p.Simulated() || p.APIKey != "" {
			t.Errorf("%s: %+v", p.Name, p)
		}
		s, err := ParseSchedule(p.Model)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		// The whole demo race must end in under 10 s.
		if offs := s.EventOffsets(0); offs[len(offs)-1] > 9*time.Second {
			t.Errorf("%s ends at %v", p.Name, offs[len(offs)-1])
		}
	}
	if !slices.Equal(names, []string{"sim-wafer", "sim-lpu", "sim-gpu", "sim-laptop"}) {
		t.Errorf("names %v", names)
	}
}
