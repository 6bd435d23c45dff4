package lane

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
	"tpsrace/workload"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

const ms = time.Millisecond

// streamed is a provider that thought for 300ms, then answered 200 words.
func streamed(done bool) *live.Lane {
	p := live.NewLane(0, config.Provider{Name: "sim-fast", Model: "sim:wafer"}, 1, 12)
	var events []probes.Event
	events = append(events, probes.Event{At: 100 * ms, Reasoning: "let me think", Tokens: 3})
	for i := range 200 {
		events = append(events, probes.Event{At: 400*ms + time.Duration(i)*5*ms, Content: " w" + strconv.Itoa(i), Tokens: 1})
	}
	p.Record(probes.Update{Events: probes.EventsOf(events...)})
	if done {
		p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(events...), End: 1500 * ms, Usage: &probes.Usage{CompletionTokens: 203}}})
	}
	return p
}

// flat is a lane's text without its box, on one line, spaces collapsed.
func flat(v string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ").Replace(v)), " ")
}

func view(p *live.Lane, w, h int, now time.Duration) string {
	m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetSize(w, h)
	m, _ = m.Update(FrameMsg{Now: now, Figures: p.Snapshot(now), Place: 1})
	return m.View()
}

func TestEverySizeFitsExactly(t *testing.T) {
	for _, done := range []bool{false, true} {
		p := streamed(done)
		for w := 0; w <= 90; w += 7 {
			for h := 0; h <= 30; h += 2 {
				v := view(p, w, h, 1200*ms)
				lines := strings.Split(v, "\n")
				if h > 0 && len(lines) != h {
					t.Fatalf("%dx%d: %d lines", w, h, len(lines))
				}
				for _, l := range lines {
					if w >= 8 && h > 0 && ansi.StringWidth(l) != w {
						t.Fatalf("%dx%d: line %q is %d wide:\n%s", w, h, l, ansi.StringWidth(l), v)
					}
				}
			}
		}
	}
}

func TestShowsFiguresThinkingAndTail(t *testing.T) {
	p := streamed(true)
	v := view(p, 60, 12, 0)
	speed := "speed " + format.TPS(p.Streams[0].Figures.OutputTPS) + " tok/s"
	for _, want := range []string{"1 sim-fast", "sim:wafer", "✓ 1st", "TTFT 100ms", "TTFA 400ms", speed, "thought for 300ms · 3 tokens", "w198 w199", "1.50s", "voice-ready"} {
		if !strings.Contains(flat(v), want) {
			t.Errorf("missing %q in:\n%s", want, v)
		}
	}
	if strings.Contains(v, "w0 w1") {
		t.Errorf("the lane should follow the tail, not show the start:\n%s", v)
	}
	live := view(streamed(false), 60, 12, 1200*ms)
	if !strings.Contains(live, "▶ streaming") || !strings.Contains(live, "now ") {
		t.Errorf("a running lane shows its status and live rate:\n%s", live)
	}
}

// A lane that has begun its answer and then hears nothing for over
// SilentAfter says how long, instead of "streaming": a provider that hung
// mid-answer shows on stage before its stall limit ends it.
func TestSilentLaneSaysHowLong(t *testing.T) {
	p := streamed(false) // its last event at 1.395s
	if v := view(p, 60, 12, 1395*ms+SilentAfter-ms); !strings.Contains(v, "▶ streaming") {
		t.Errorf("a pause under %s is still streaming:\n%s", SilentAfter, v)
	}
	if v := view(p, 60, 12, 3395*ms); !strings.Contains(v, "◌ silent 2.00s") {
		t.Errorf("two seconds without an event:\n%s", v)
	}
}

func TestShowsTheFailure(t *testing.T) {
	p := live.NewLane(2, config.Provider{Name: "groq", Model: "llama"}, 1, 0)
	fail := &probes.Failure{Kind: probes.KindHTTP, Status: 401, Code: "invalid_api_key", Message: "Invalid API Key", Hint: "check GROQ_API_KEY"}
	p.Record(probes.Update{Done: &probes.Result{End: 30 * ms, Err: fail}})
	v := view(p, 50, 8, 0)
	for _, want := range []string{"3 groq", "✗ failed", "401 invalid_api_key: Invalid API Key", "check GROQ_API_KEY"} {
		if !strings.Contains(flat(v), want) {
			t.Errorf("missing %q in:\n%s", want, v)
		}
	}
}

// A lane of one line (an 80×24 terminal) that failed after its text says
// why on that line, where its speed would be: it has no line for it below.
func TestOneLineFailedLaneSaysWhy(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "sim-fast", Model: "sim:wafer"}, 1, 12)
	events := probes.EventsOf(probes.Event{At: 100 * ms, Content: "some text", Tokens: 2})
	p.Record(probes.Update{Events: events})
	fail := &probes.Failure{Kind: probes.KindTimeout, Message: "stalled 5s after 2 tokens"}
	p.Record(probes.Update{Done: &probes.Result{Events: events, End: 7 * time.Second, Err: fail}})
	if v := view(p, 60, 1, 7*time.Second); flat(v) != "1 sim-fast ✗ failed stalled 5s after 2 tokens" {
		t.Errorf("got %q", v)
	}
	if v := view(p, 40, 1, 7*time.Second); flat(v) != "1 sim-fast ✗ failed stalled 5s after …" {
		t.Errorf("cut to 40: got %q", v)
	}
}

// A lane that failed before any text says, zoomed, why its title has a ⚑,
// and its failure, though it was zoomed before the failure came.
func TestFailedLaneSaysWhyItIsFlagged(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "groq", Model: "llama"}, 1, 0)
	fail := &probes.Failure{Kind: probes.KindHTTP, Status: 429, Message: "Rate limit reached"}
	p.Record(probes.Update{Done: &probes.Result{End: 30 * ms, Err: fail, Retries: 2}})
	m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetZoomed(true)
	m.SetSize(90, 14)
	m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0)})
	v := m.View()
	for _, want := range []string{"1 groq ⚑", "⚑ retried  sent 2 more times before its first byte", "Rate limit reached"} {
		if !strings.Contains(v, want) {
			t.Errorf("zoomed failed lane does not say %q:\n%s", want, v)
		}
	}
}

func TestZoomScrollsTheWholeAnswer(t *testing.T) {
	p := streamed(true)
	m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetSize(40, 12)
	m.SetZoomed(true)
	m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0)})
	if strings.Contains(m.View(), "let me think") {
		t.Fatalf("zoomed lane should start at the tail:\n%s", m.View())
	}
	for range 100 {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyUp})
	}
	if !strings.Contains(m.View(), "let me think") {
		t.Errorf("scrolled to the top, the reasoning shows:\n%s", m.View())
	}
	m, _ = m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'G'}})
	if !strings.Contains(m.View(), "w199") {
		t.Errorf("G follows the tail again:\n%s", m.View())
	}
}

func TestPreparingShowsLoadingOrWaiting(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "laptop", Model: "qwen"}, 1, 12)
	m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetSize(50, 8)
	m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0), Preparing: true, Loading: "loading model… 3.2s"})
	if v := flat(m.View()); !strings.Contains(v, "◌ loading") || !strings.Contains(v, "loading model… 3.2s") || strings.Contains(v, "TTFT") {
		t.Errorf("loading lane: %s", v)
	}
	m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0), Preparing: true})
	if v := flat(m.View()); !strings.Contains(v, "◌ waiting") || !strings.Contains(v, "waiting for local servers…") {
		t.Errorf("waiting lane: %s", v)
	}
	m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0)})
	if v := flat(m.View()); !strings.Contains(v, "waiting for the first token…") || !strings.Contains(v, "TTFT") {
		t.Errorf("lane in the race: %s", v)
	}
}

// A zoomed lane's text is wrapped again at the zoomed width, however small
// the lane was when it was filled.
func TestZoomRewrapsAtItsWidth(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "broken"}, 1, 0)
	p.Record(probes.Update{Done: &probes.Result{Err: errors.New(strings.Repeat("word ", 30) + "the-end")}})
	m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetSize(20, 10)
	m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0)})
	m.SetZoomed(true)
	m.SetSize(200, 10)
	if v := m.View(); !strings.Contains(v, "word word the-end") {
		t.Errorf("zoomed at 200 wide, the error is not rewrapped:\n%s", v)
	}
}

// However long the model ID, the status badge stays whole in the title;
// the model is shortened first.
func TestTitleKeepsTheBadge(t *testing.T) {
	for _, model := range []string{"meta-llama/Llama-3.3-70B-Instruct-Turbo", "accounts/fireworks/models/llama-v3p3-70b-instruct"} {
		for _, done := range []bool{false, true} {
			p := live.NewLane(0, config.Provider{Name: "together", Model: model}, 1, 0)
			recorded := streamed(done).Streams[0]
			p.Record(probes.Update{Events: recorded.Events})
			if done {
				p.Record(probes.Update{Done: recorded.Result})
			}
			badge := "▶ streaming"
			if done {
				badge = "✓ 1st"
			}
			for w := 30; w <= 120; w += 3 {
				top := strings.Split(view(p, w, 10, 1200*ms), "\n")[0]
				if !strings.Contains(top, badge) || !strings.Contains(top, "1 together") {
					t.Errorf("%d wide: %q lacks %q", w, top, badge)
				}
			}
		}
	}
}

// At C=64 with most streams queued the lane shows the streaming ones'
// figures and text, never "now 0.00 tok/s" and an empty lane, and says
// how many wait.
func TestConcurrentLaneWithQueuedStreams(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "vllm", Model: "Qwen/Qwen2.5-7B"}, 64, 0)
	var events []probes.Event
	for i := range 50 {
		events = append(events, probes.Event{At: 150*ms + time.Duration(i)*10*ms, Content: " w" + strconv.Itoa(i), Tokens: 1})
	}
	for s := 40; s < 44; s++ { // four slots, and they are not streams 0-3
		p.Record(probes.Update{Stream: s, Events: probes.EventsOf(events...)})
	}
	v := flat(view(p, 80, 14, 700*ms))
	now := "now " + format.TPS(metrics.LiveTPS(probes.EventsOf(events...), 700*ms)) + " tok/s"
	mustShow(t, v, "TTFT p50 150ms max 150ms", "60 queued", now, "w49")
	if strings.Contains(v, "now 0.00") {
		t.Errorf("a lane with streams streaming shows no speed: %s", v)
	}
}

// A failed lane at C=16 counts tokens per user as every other figure of a
// concurrent lane does: the median stream's, not the sum of its 16.
func TestFailedConcurrentLaneCountsPerUser(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "groq", Model: "llama"}, 16, 0)
	fail := &probes.Failure{Kind: probes.KindTimeout, Message: "no byte for 20s"}
	for s := range 16 {
		var events []probes.Event
		for i := range 40 + s { // 40 to 55 tokens: the median is 47.5
			events = append(events, probes.Event{At: 100*ms + time.Duration(i)*10*ms, Content: " w", Tokens: 1})
		}
		p.Record(probes.Update{Stream: s, Events: probes.EventsOf(events...)})
		p.Record(probes.Update{Stream: s, Done: &probes.Result{Events: probes.EventsOf(events...), End: 900 * ms, Err: fail}})
	}
	v := flat(view(p, 80, 12, time.Second))
	mustShow(t, v, "✗ failed", "48 tok/user", "all 16 streams failed")
	if strings.Contains(v, "760") {
		t.Errorf("the lane sums its streams' tokens (760): %s", v)
	}
}

// A failure cut to the lane's rows ends with "…", at every lane width.
func TestCutFailureEndsWithEllipsis(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "together", Model: "m"}, 1, 0)
	fail := &probes.Failure{Kind: probes.KindHTTP, Status: 429, Code: "rate_limit_exceeded",
		Message: "Rate limit reached for meta-llama/Llama-3.3-70B-Instruct-Turbo in organization org-123 on tokens per minute: limit 60000, used 59000, requested 2000",
		Hint:    "wait and race again, or lower --concurrency"}
	p.Record(probes.Update{Done: &probes.Result{End: 30 * ms, Err: fail}})
	for w := 20; w <= 60; w++ {
		lines := strings.Split(view(p, w, 5, 0), "\n") // 3 rows inside: the text is cut
		last := strings.TrimRight(strings.TrimSuffix(lines[3], "│"), " ")
		if !strings.HasSuffix(last, "…") {
			t.Errorf("width %d: the cut failure's last line %q does not end with …", w, last)
		}
	}
	full := flat(view(p, 200, 12, 0))
	if strings.Contains(full, "…") || !strings.Contains(full, "lower --concurrency") {
		t.Errorf("a failure that fits is cut: %s", full)
	}
}

// mustShow fails the test for each of wants that view v does not show.
func mustShow(t *testing.T, v string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(v, want) {
			t.Errorf("missing %q in %s", want, v)
		}
	}
}

// A stream the referee flags marks its lane's title ⚑; zoomed, the lane
// says which flags and why.
func TestFlaggedLane(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "cached", Model: "m"}, 1, 0)
	cached := 900
	p.Record(probes.Update{Done: &probes.Result{Model: "m", Events: probes.EventsOf(probes.Event{At: 10 * time.Millisecond, Content: " a", Tokens: 1},
		probes.Event{At: 20 * time.Millisecond, Content: " b", Tokens: 1}), End: 30 * time.Millisecond,
		Usage: &probes.Usage{PromptTokens: 1000, CompletionTokens: 2, TotalTokens: 1002, CachedPromptTokens: &cached}}})
	m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m.SetSize(60, 14)
	m, _ = m.Update(FrameMsg{Figures: p.Snapshot(0)})
	if title := strings.Split(m.View(), "\n")[0]; !strings.Contains(title, "1 cached ⚑") {
		t.Errorf("title %q lacks the ⚑", title)
	}
	m.SetZoomed(true)
	m.SetSize(90, 14)
	v := m.View()
	for _, want := range []string{"⚑ cached_prompt  900 of 1,000 prompt tokens served from the provider's cache", "⚑ short_answer  1 tokens after the first event (under 20)"} {
		if !strings.Contains(v, want) {
			t.Errorf("zoomed lane does not say %q:\n%s", want, v)
		}
	}
	m.SetSize(60, 10) // too short for a line each: their names
	if v := m.View(); !strings.Contains(v, "⚑ cached_prompt, short_answer") {
		t.Errorf("a short zoomed lane does not name its flags:\n%s", v)
	}
}

// A stall shows on the lane itself, whatever its size: the leaderboard's
// feel column gives way on a narrow terminal, and the gap strip shows only
// the last events, long after an early stall scrolled off.
func TestEarlyStallShowsInTheBorder(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "sim-stall", Model: "sim:gpu"}, 1, 12)
	var events []probes.Event
	for i := range 300 {
		at := 100*ms + time.Duration(i)*5*ms
		if i >= 3 {
			at += 600 * ms // one stall of 605ms, after the third event
		}
		events = append(events, probes.Event{At: at, Content: " w" + strconv.Itoa(i), Tokens: 1})
	}
	p.Record(probes.Update{Events: probes.EventsOf(events...)})
	p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(events...), End: 2300 * ms, Usage: &probes.Usage{CompletionTokens: 300}}})
	for _, size := range []struct{ w, h int }{{40, 8}, {80, 22}} {
		if v := flat(view(p, size.w, size.h, 2300*ms)); !strings.Contains(v, "1 stall · 605ms") {
			t.Errorf("%dx%d: no stall in\n%s", size.w, size.h, v)
		}
	}
}

// A tool-call lane that wrote no text shows its call's figures in the
// place of TTFT and speed, "…" until the run has them, and no track or
// sparkline, which would stand empty.
func TestToolOnlyLaneShowsTheCallsFigures(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "sim-lpu", Model: "sim:lpu"}, 1, 12)
	p.Record(probes.Update{Tool: &probes.ToolDelta{At: 180 * ms, Index: 0, ID: "call_1", Name: "get_weather", Arguments: `{"city":`}})
	p.Record(probes.Update{Tool: &probes.ToolDelta{At: 191 * ms, Index: 0, Arguments: `"Paris"}`}})
	for _, c := range []struct {
		finished int
		want     string
	}{
		{0, "1st call … complete … args tok/s … valid …"},
		{1, "1st call 180ms complete 191ms args tok/s 893 valid 1/1"},
	} {
		f := p.Snapshot(200 * ms)
		w, _ := workload.Named(workload.ToolCall)
		f.Workload = &live.WorkloadRun{Name: workload.ToolCall, Step: 1, Steps: 1, Finished: c.finished,
			Spec: w,
			WorkloadRuns: metrics.WorkloadRuns{Ranked: metrics.Summary{ToolStreams: 1, ToolValid: 1,
				ToolFirst:    metrics.DistOf([]time.Duration{180 * ms}),
				ToolComplete: metrics.DistOf([]time.Duration{191 * ms}),
				ArgsTPS:      metrics.DistOf([]float64{893})}}}
		m := New(p, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		m.SetSize(60, 14)
		m, _ = m.Update(FrameMsg{Now: 200 * ms, Figures: f, Finish: 400})
		v := m.View()
		if !strings.Contains(flat(v), c.want) || strings.Contains(v, "TTFT") || strings.Contains(v, "┃") {
			t.Errorf("finished %d: want %q, no TTFT and no track, in\n%s", c.finished, c.want, v)
		}
	}
}

// A lane whose every stream failed before any text is a strip: one line,
// what failed in a room's words, then the failure's own, cut with "…"
// where the line ends. A lane that failed after text, or one the user
// stopped, is not.
func TestFailedBeforeTextIsAStrip(t *testing.T) {
	refused := live.NewLane(2, config.Provider{Name: "groq", Model: "llama"}, 1, 0)
	fail := &probes.Failure{Kind: probes.KindHTTP, Status: 401, Code: "invalid_api_key", Message: "Invalid API Key", Hint: "check GROQ_API_KEY"}
	refused.Record(probes.Update{Done: &probes.Result{End: 30 * ms, Err: fail}})
	if !Strip(refused.Snapshot(0), refused) {
		t.Error("a lane refused before any text is no strip")
	}
	if got, want := flat(view(refused, 100, 1, 0)), "3 groq ✗ key refused · 401 invalid_api_key: Invalid API Key — check GROQ_API_KEY"; got != want {
		t.Errorf("strip %q, want %q", got, want)
	}
	if got := view(refused, 30, 1, 0); ansi.StringWidth(got) != 30 || !strings.HasSuffix(strings.TrimRight(got, " "), "…") {
		t.Errorf("a strip cut to 30 columns: %q", got)
	}
	m := New(refused, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	m, _ = m.Update(FrameMsg{Figures: refused.Snapshot(0)})
	if one, two := m.StripRows(100), m.StripRows(50); one != 1 || two != 2 {
		t.Errorf("StripRows: %d at 100 columns, %d at 50; want 1 and 2", one, two)
	}
	two := strings.Split(view(refused, 50, 2, 0), "\n")
	if len(two) != 2 || !strings.HasPrefix(two[0], "3 groq ✗ key refused · 401") || strings.TrimSpace(two[1]) != "Invalid API Key — check GROQ_API_KEY" {
		t.Errorf("a two-line strip: %q", two)
	}
	if v := flat(view(refused, 60, 8, 0)); !strings.Contains(v, "✗ failed") {
		t.Errorf("given a box (zoomed), the lane draws its box: %s", v)
	}

	late := live.NewLane(0, config.Provider{Name: "laptop"}, 1, 0)
	streamed := probes.EventsOf(probes.Event{At: 100 * ms, Content: " w", Tokens: 1})
	late.Record(probes.Update{Events: streamed})
	late.Record(probes.Update{Done: &probes.Result{Events: streamed, End: 200 * ms, Err: &probes.Failure{Kind: probes.KindNetwork, Message: "connection reset"}}})
	stopped := live.NewLane(1, config.Provider{Name: "slow"}, 1, 0)
	stopped.Record(probes.Update{Done: &probes.Result{End: 50 * ms, Err: &probes.Failure{Kind: probes.KindCancelled, Message: "cancelled"}}})
	for _, p := range []*live.Lane{late, stopped} {
		if Strip(p.Snapshot(time.Second), p) {
			t.Errorf("%s: a strip, want its box", p.Name)
		}
	}
}

// What failed, in a room's words, by the failure's kind and status.
func TestFailedWords(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&probes.Failure{Kind: probes.KindHTTP, Status: 403}, "key refused"},
		{&probes.Failure{Kind: probes.KindHTTP, Status: 404}, "model not found"},
		{&probes.Failure{Kind: probes.KindHTTP, Status: 429}, "rate limited"},
		{&probes.Failure{Kind: probes.KindHTTP, Status: 503}, "server error"},
		{&probes.Failure{Kind: probes.KindHTTP, Status: 400}, "request refused"},
		{&probes.Failure{Kind: probes.KindNetwork}, "could not connect"},
		{&probes.Failure{Kind: probes.KindTimeout}, "no answer in time"},
		{errors.New("odd"), "failed"},
	} {
		if got := failedWords(tc.err); got != tc.want {
			t.Errorf("failedWords(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// A bare lane (a tiny terminal) carries the referee's ⚑ as the bordered
// one does, and says why a burst has no speed: the border's badge is not
// there to.
func TestBareLaneSaysFlagAndBurst(t *testing.T) {
	p := live.NewLane(0, config.Provider{Name: "together", Model: "m"}, 1, 12)
	var events []probes.Event
	for i := range 30 {
		events = append(events, probes.Event{At: time.Second + time.Duration(i)*time.Microsecond, Content: " w", Tokens: 1})
	}
	p.Record(probes.Update{Events: probes.EventsOf(events...)})
	p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(events...), End: time.Second + time.Millisecond, FinishReason: "stop"}})
	if v := flat(view(p, 60, 3, 0)); !strings.Contains(v, "1 together ⚑ ✓") || !strings.Contains(v, "speed - one burst") {
		t.Errorf("the bare lane: %s", v)
	}
}
