package workloadview

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"tpsrace/metrics"
	"tpsrace/ui/theme"
	"tpsrace/workload"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

const ms = time.Millisecond

// stream is a completed stream with this TTFT, speed and input size.
func stream(ttft time.Duration, tps float64, input int) metrics.Stream {
	return metrics.Stream{Figures: metrics.Figures{TTFT: ttft, HasTTFT: true, OutputTPS: tps, HasOutputTPS: true,
		E2E: ttft + time.Second, Completed: true}, InputTokens: input}
}

// named is the workload called name, with its defaults.
func named(name string) workload.Workload {
	w, _ := workload.Named(name)
	return w
}

// runs is a provider's figures over races, a stream each, under workload name.
func runs(name string, streams ...metrics.Stream) *metrics.WorkloadRuns {
	races := make([][]metrics.Stream, len(streams))
	for k, s := range streams {
		races[k] = []metrics.Stream{s}
	}
	r := metrics.WorkloadRunsOf(named(name), races, 0)
	return &r
}

// sweep is a provider's long-context run over sizes: TTFT = base + size ÷ prefill.
func sweep(name string, base time.Duration, prefill float64, sizes ...int) Row {
	var streams []metrics.Stream
	for _, n := range sizes {
		streams = append(streams, stream(base+time.Duration(float64(n)/prefill*float64(time.Second)), 100, n))
	}
	return Row{Name: name, WorkloadRuns: runs(workload.LongContext, streams...)}
}

func view(t *testing.T, f Figures, w, h int) []string {
	t.Helper()
	p := New(DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	p.SetSize(w, h)
	p, _ = p.Update(FrameMsg{Figures: f})
	lines := strings.Split(p.View(), "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), h, p.View())
	}
	for k, l := range lines {
		if ansi.StringWidth(l) != w {
			t.Errorf("line %d is %d wide, want %d: %q", k, ansi.StringWidth(l), w, l)
		}
	}
	return lines
}

func TestLongContextShowsPrefillAndTTFTBySize(t *testing.T) {
	f := Figures{Workload: workload.LongContext, Step: 3, Steps: 3, InputTokens: 32000, Providers: []Row{
		sweep("sim-wafer", 50*ms, 10000, 1000, 8000, 32000),
		sweep("sim-gpu", 200*ms, 2500, 1000, 8000, 32000),
	}}
	small := strings.Join(view(t, f, 80, 6), "\n")
	for _, want := range []string{"long-context · size 3/3 · 32,000 tokens", "≈ 10,000 tok/s", "≈ 2,500 tok/s", "1,000 tok", "150ms", "3.40s", "13.0s┤", "0┤"} {
		if !strings.Contains(small, want) {
			t.Errorf("80x6 lacks %q:\n%s", want, small)
		}
	}
	if strings.Contains(small, "server prompt") {
		t.Errorf("80x6 shows a server prompt speed no provider reported:\n%s", small)
	}
	// The chart: each provider's marker at each of its sizes, its line between.
	var chart string // right of the TTFT axis
	for _, l := range strings.Split(small, "\n")[1:5] {
		chart += l[strings.LastIndexAny(l, "│┤"):]
	}
	if strings.Count(chart, "●") < 2 || strings.Count(chart, "■") < 2 || !strings.ContainsAny(chart, "⠁⠂⠄⡀⠈⠐⠠⢀") {
		t.Errorf("80x6 draws no chart of TTFT by size:\n%s", small)
	}
	wide := strings.Join(view(t, f, 160, 10), "\n")
	for _, want := range []string{"32,000 tok", "3.25s", "13.0s", "8.0k", "32k"} {
		if !strings.Contains(wide, want) {
			t.Errorf("160x10 lacks %q:\n%s", want, wide)
		}
	}
	// Too narrow: nothing rather than a part.
	if narrow := strings.Join(view(t, f, MinWidth-1, 6), ""); strings.TrimSpace(narrow) != "" {
		t.Errorf("%d columns show %q, want nothing", MinWidth-1, narrow)
	}
	if short := strings.Join(view(t, f, 80, MinHeight(2)-1), ""); strings.TrimSpace(short) != "" {
		t.Errorf("%d lines show %q, want nothing", MinHeight(2)-1, short)
	}
}

// A sweep whose TTFT does not grow with the input (a provider without a
// prefill cost, its TTFT a few µs apart) has no estimate, and says why.
func TestLongContextFlatTTFTHasNoEstimate(t *testing.T) {
	flat := Row{Name: "flat", WorkloadRuns: runs(workload.LongContext,
		stream(600*ms, 100, 1000), stream(600*ms+100*time.Microsecond, 100, 8000), stream(600*ms+600*time.Microsecond, 100, 32000))}
	f := Figures{Workload: workload.LongContext, Step: 3, Steps: 3, InputTokens: 32000, Providers: []Row{sweep("sim-gpu", 200*ms, 2500, 1000, 8000, 32000), flat}}
	lines := view(t, f, 80, 6)
	if !strings.Contains(lines[3], "- flat") || strings.Contains(lines[3], "≈") || !strings.Contains(lines[2], "≈ 2,500 tok/s") {
		t.Errorf("want the flat sweep's reason, the other's estimate:\n%s", strings.Join(lines, "\n"))
	}
}

// A llama.cpp provider's prefill estimate stands beside the server's own
// prompt speed; the others' say "-".
func TestLongContextShowsTheServersPromptSpeed(t *testing.T) {
	small, large := stream(10*ms+time.Second*1000/400, 20, 1000), stream(10*ms+time.Second*4000/400, 20, 4000)
	small.ServerPromptTPS, small.HasServerPromptTPS = 400, true
	large.ServerPromptTPS, large.HasServerPromptTPS = 424, true
	llama := Row{Name: "llama", WorkloadRuns: runs(workload.LongContext, small, large)}
	f := Figures{Workload: workload.LongContext, Step: 2, Steps: 2, InputTokens: 4000, Providers: []Row{sweep("sim-gpu", 200*ms, 2500, 1000, 4000), llama}}
	lines := view(t, f, 80, 6)
	if !strings.Contains(lines[1], "server prompt") || !strings.Contains(lines[3], "≈ 400 tok/s") || !strings.Contains(lines[3], "412 tok/s") ||
		!strings.Contains(lines[2], "≈ 2,500 tok/s") {
		t.Errorf("want the llama's estimate beside its server's speed, the other's server speed -:\n%s", strings.Join(lines, "\n"))
	}
	if fields := strings.Fields(lines[2]); !slices.Contains(fields, "-") {
		t.Errorf("sim-gpu reported no server speed, want -: %q", lines[2])
	}
}

// cache is a provider's cached-prefix run: a cold and a warm stream, the
// warm one's cached tokens reported when cached >= 0.
func cache(name string, cold, warm time.Duration, cached int) Row {
	w := stream(warm, 100, 8000)
	w.CachedPromptTokens, w.HasCachedPromptTokens = max(cached, 0), cached >= 0
	return Row{Name: name, WorkloadRuns: runs(workload.CachedPrefix, stream(cold, 100, 8000), w)}
}

func TestCachedPrefixShowsColdAndWarmSideBySide(t *testing.T) {
	f := Figures{Workload: workload.CachedPrefix, Step: 2, Steps: 2, InputTokens: 8000, Providers: []Row{
		cache("sim-wafer", 1200*ms, 200*ms, 7990), cache("sim-gpu", 900*ms, 850*ms, -1),
	}}
	lines := view(t, f, 80, 6)
	want := [][]string{
		{"cached-prefix · warm race 2/2 · 8,000 tokens"},
		{"cold TTFT", "warm TTFT", "saving", "cached (reported)"},
		{"● sim-wafer", "1.20s", "200ms", "83%", "7,990 tok", "███"},
		{"■ sim-gpu", "900ms", "850ms", "6%", "none reported"},
	}
	for k, parts := range want {
		for _, p := range parts {
			if !strings.Contains(lines[k], p) {
				t.Errorf("line %d lacks %q:\n%s", k, p, strings.Join(lines, "\n"))
			}
		}
	}
	// 40 columns: the bars, the cached tokens and the saving give way whole.
	narrow := strings.Join(view(t, f, 40, 4), "\n")
	if !strings.Contains(narrow, "200ms") || strings.Contains(narrow, "83") || strings.Contains(narrow, "7,990") {
		t.Errorf("40 columns: want cold and warm only:\n%s", narrow)
	}
	// The cold race done, the warm one racing: its figures are undefined, not 0.
	f.Step = 1
	f.Providers = []Row{{Name: "sim-wafer", WorkloadRuns: runs(workload.CachedPrefix, stream(time.Second, 100, 8000))}}
	cold := view(t, f, 80, 3)
	if fields := strings.Fields(cold[2]); !slices.Equal(fields[3:6], []string{"-", "-", "-"}) || !strings.Contains(cold[0], "cold race 1/2") {
		t.Errorf("before the warm race, want warm, saving and cached -:\n%s", strings.Join(cold, "\n"))
	}
}

// conversation is a provider's multi-turn run so far: a race a turn.
func conversation(name string, turns ...time.Duration) Row {
	var streams []metrics.Stream
	for k, ttft := range turns {
		s := stream(ttft, 250, 0)
		s.PromptTokens, s.HasPromptTokens = 1200*(k+1), true
		streams = append(streams, s)
	}
	return Row{Name: name, WorkloadRuns: runs(workload.MultiTurn, streams...)}
}

func TestMultiTurnShowsEachTurn(t *testing.T) {
	f := Figures{Workload: workload.MultiTurn, Step: 3, Steps: 3, Providers: []Row{
		conversation("sim-wafer", 200*ms, 250*ms), conversation("sim-gpu", 500*ms, 650*ms),
	}}
	lines := view(t, f, 80, 4)
	want := [][]string{
		{"multi-turn · turn 3/3"},
		{"turn 1 TTFT", "tok/s", "input", "turn 2 TTFT", "conversation"},
		{"● sim-wafer", "200ms", "250", "1,200", "250ms", "2,400", "2.45s"},
		{"■ sim-gpu", "500ms", "650ms", "3.15s"},
	}
	for k, parts := range want {
		for _, p := range parts {
			if !strings.Contains(lines[k], p) {
				t.Errorf("line %d lacks %q:\n%s", k, p, strings.Join(lines, "\n"))
			}
		}
	}
	// 40 columns: the speeds give way, then the first turn.
	narrow := strings.Join(view(t, f, 40, 4), "\n")
	if !strings.Contains(narrow, "turn 2 TTFT") || !strings.Contains(narrow, "650ms") || strings.Contains(narrow, "turn 1") || strings.Contains(narrow, "tok/s") {
		t.Errorf("40 columns: want the last turn's TTFT and the conversation:\n%s", narrow)
	}
}

// Chat, tool-call and json races are one race a run: no panel.
func TestOtherWorkloadsShowNothing(t *testing.T) {
	for _, name := range []string{workload.Chat, workload.ToolCall, workload.JSON} {
		if Shows(name) {
			t.Errorf("Shows(%q)", name)
		}
		f := Figures{Workload: name, Step: 1, Steps: 1, Providers: []Row{conversation("a", time.Second)}}
		if v := strings.Join(view(t, f, 80, 6), ""); strings.TrimSpace(v) != "" {
			t.Errorf("%s shows %q", name, v)
		}
	}
}

// The panel draws again only when some provider's figures are new (the
// session makes new ones when a race of the run begins or ends), not on
// every frame: the same figures again leave the view as it was.
func TestPanelDrawsOnlyNewFigures(t *testing.T) {
	p := New(DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	p.SetSize(80, 4)
	wafer := sweep("sim-wafer", 50*ms, 10000, 1000, 8000)
	f := Figures{Workload: workload.LongContext, Step: 2, Steps: 2, InputTokens: 8000, Providers: []Row{wafer}}
	p, _ = p.Update(FrameMsg{Figures: f})
	before := p.View()
	wafer.All.PrefillTPS = 20000 // never done by the session: shows whether the frame drew again
	if p, _ = p.Update(FrameMsg{Figures: f}); p.View() != before {
		t.Errorf("the same figures drew again:\n%s", p.View())
	}
	f.Providers = []Row{sweep("sim-wafer", 50*ms, 20000, 1000, 8000)}
	if p, _ = p.Update(FrameMsg{Figures: f}); !strings.Contains(p.View(), "≈ 20,000 tok/s") {
		t.Errorf("new figures not drawn:\n%s", p.View())
	}
}
