package leaderboard

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

func TestOrderRanksBySpeedThenWaitingThenFailed(t *testing.T) {
	figs := []live.Snapshot{
		{Status: live.Failed, Settled: true},                                          // 0
		{Status: live.Streaming, HasSpeed: true, Speed: 100, HasTTFT: true},           // 1
		{Status: live.Waiting},                                                        // 2
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 900},                // 3
		{Status: live.Streaming, HasSpeed: true, Speed: 100, HasTTFT: true, TTFT: -1}, // 4: same speed, earlier TTFT
	}
	got := Order(figs)
	want := []int{3, 4, 1, 2, 0}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("Order = %v, want %v", got, want)
		}
	}
}

// Places follow the ranking among the finished lanes, so "#" and
// "finish" never disagree: the faster decoder that ended later (its first
// token was later) is 1st, as it is #1.
func TestPlacesFollowTheRanking(t *testing.T) {
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 100, HasTTFT: true, TTFT: 100 * time.Millisecond, Elapsed: time.Second},
		{Status: live.Streaming, HasSpeed: true, Speed: 300},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 200, HasTTFT: true, TTFT: 900 * time.Millisecond, Elapsed: 3 * time.Second},
		{Status: live.Failed, Settled: true, Elapsed: time.Millisecond},
	}
	got := Places(figs)
	if got[0] != 2 || got[1] != 0 || got[2] != 1 || got[3] != 0 {
		t.Fatalf("Places = %v, want [2 0 1 0]", got)
	}
	b := New([]string{"early", "running", "fast", "broken"}, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(80, 6)
	b, _ = b.Update(FrameMsg{Figures: figs})
	last := 0
	for _, row := range strings.Split(b.View(), "\n") {
		for place, word := range []string{"1st", "2nd"} {
			if strings.Contains(row, word) {
				if place+1 < last {
					t.Errorf("%s below a later place:\n%s", word, b.View())
				}
				last = place + 1
			}
		}
	}
}

// With --finish-at, an answer that ended short of N wins no place, however
// early it ended.
func TestStoppedShortWinsNoPlace(t *testing.T) {
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, Elapsed: 3 * time.Second, FinishAt: 40, HasTimeToN: true},
		{Status: live.Done, Settled: true, Elapsed: time.Second, FinishAt: 40, UserTokens: 24},
	}
	if got := Places(figs); got[0] != 1 || got[1] != 0 {
		t.Fatalf("Places = %v, want [1 0]", got)
	}
	b := New([]string{"long", "brief"}, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(80, 4)
	b, _ = b.Update(FrameMsg{Figures: figs})
	rows := strings.Split(b.View(), "\n")
	if !strings.Contains(rows[1], "long") || !strings.Contains(rows[1], "1st") ||
		!strings.Contains(rows[2], "brief") || !strings.Contains(rows[2], "short") {
		t.Errorf("leaderboard:\n%s", b.View())
	}
}

// A race a broken recording cut (replayed) crowns no one, as replay --bench
// leaves it out: a provider that kept one of its four streams wins no
// place, and the one whose streams were all lost might have won.
func TestCutRaceHasNoVerdict(t *testing.T) {
	names := []string{"whole", "partly lost", "all lost"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 200, Streams: 4, Elapsed: 2 * time.Second},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 100, Streams: 4, Failed: 3, Lost: 3, Elapsed: time.Second},
		{Status: live.Failed, Settled: true, Streams: 4, Failed: 4, Lost: 4},
	}
	if got, want := Verdict(names, figs), "no verdict: the race is incomplete (7 lost)"; got != want {
		t.Errorf("Verdict = %q, want %q", got, want)
	}
	if got := Places(figs); got[0] != 1 || got[1] != 0 || got[2] != 0 {
		t.Errorf("Places = %v, want [1 0 0]", got)
	}
}

// A race stopped before any stream completed (the replay of an
// interrupted race) says its providers were stopped, not that they failed.
func TestStoppedIsNotFailed(t *testing.T) {
	names := []string{"a", "b"}
	stop := &probes.Failure{Kind: probes.KindCancelled, Message: "cancelled after 31 tokens"}
	figs := []live.Snapshot{
		{Status: live.Failed, Settled: true, Streams: 1, Failed: 1, Err: stop, UserTokens: 31},
		{Status: live.Failed, Settled: true, Streams: 1, Failed: 1, Err: &probes.Failure{Kind: probes.KindHTTP, Message: "500"}},
	}
	if got, want := Verdict(names, figs), "no provider completed a stream · 1 failed · 1 stopped"; got != want {
		t.Errorf("Verdict = %q, want %q", got, want)
	}
	b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(80, 4)
	b, _ = b.Update(FrameMsg{Figures: figs})
	if rows := strings.Split(b.View(), "\n"); !strings.Contains(rows[1]+rows[2], " stopped ") || !strings.Contains(rows[1]+rows[2], " failed ") {
		t.Errorf("leaderboard:\n%s", b.View())
	}
}

func TestVerdict(t *testing.T) {
	names := []string{"fast", "slow", "broken"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 1400},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 100},
		{Status: live.Failed, Settled: true},
	}
	if got, want := Verdict(names, figs), "fast is 14× faster than slow (1,400 vs 100 tok/s) · 1 failed"; got != want {
		t.Errorf("Verdict = %q, want %q", got, want)
	}
	figs[1].Settled = false
	if got := Verdict(names, figs); got != "" {
		t.Errorf("Verdict before the end = %q", got)
	}
}

// The referee's flags on the two the verdict rests on follow the verdict:
// on a line of their own when the table leaves one, else at the end of
// the verdict's line, whole or as a bare ⚑.
func TestVerdictSaysTheFlags(t *testing.T) {
	names := []string{"fast", "slow"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 1400, Flags: "cached_prompt: 5 of 12 prompt tokens served from the provider's cache"},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 100},
	}
	const verdict, flagged = "fast is 14× faster than slow (1,400 vs 100 tok/s)", "fast had cached prompts in 1/1 runs"
	if got := Verdict(names, figs); got != verdict+" · ⚑ "+flagged {
		t.Errorf("Verdict = %q", got)
	}
	b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(120, 5)
	b, _ = b.Update(FrameMsg{Figures: figs, Ended: true})
	if rows := strings.Split(b.View(), "\n"); strings.TrimSpace(rows[3]) != "▶ "+verdict || strings.TrimSpace(rows[4]) != "⚑ "+flagged {
		t.Errorf("a spare line: the flags under the verdict:\n%s", b.View())
	}
	b.SetSize(120, 4)
	b, _ = b.Update(FrameMsg{Figures: figs, Ended: true})
	if rows := strings.Split(b.View(), "\n"); strings.TrimSpace(rows[3]) != "▶ "+verdict+" · ⚑ "+flagged {
		t.Errorf("no spare line: the flags end the verdict's:\n%s", b.View())
	}
	// Where they do not fit whole, a bare ⚑: the lanes say why.
	b.SetSize(len("▶ "+verdict)+5, 4)
	b, _ = b.Update(FrameMsg{Figures: figs, Ended: true})
	if rows := strings.Split(b.View(), "\n"); strings.TrimSpace(rows[3]) != "▶ "+verdict+" ⚑" {
		t.Errorf("too narrow for the flags: a bare ⚑ after the verdict:\n%s", b.View())
	}
}

func TestTokensShowO200kWhenUsageDiffers(t *testing.T) {
	if got := tokensCell(live.Snapshot{Tokens: 120, O200kTokens: 100, TokenSource: metrics.SourceUsage}); got != "120 (o200k 100)" {
		t.Errorf("20%% apart: %q", got)
	}
	if got := tokensCell(live.Snapshot{Tokens: 104, O200kTokens: 100, TokenSource: metrics.SourceUsage}); got != "104" {
		t.Errorf("4%% apart: %q", got)
	}
	if got := tokensCell(live.Snapshot{Tokens: 42, O200kTokens: 42, TokenSource: metrics.SourceEstimate}); got != "~42" {
		t.Errorf("estimate: %q", got)
	}
}

func TestViewFitsAndDropsColumnsWhenNarrow(t *testing.T) {
	names := []string{"sim-wafer", "sim-laptop"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 1800, HasTTFT: true, TTFT: 250 * time.Millisecond, Elapsed: time.Second, Tokens: 400, O200kTokens: 400, TokenSource: metrics.SourceUsage, HasCost: true, CostUSD: 0.0005},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 25, HasTTFT: true, TTFT: 600 * time.Millisecond, Elapsed: 7 * time.Second, Tokens: 160, O200kTokens: 160, TokenSource: metrics.SourceUsage},
	}
	for _, width := range []int{30, 60, 80, 140} {
		b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		b.SetSize(width, 4)
		b, _ = b.Update(FrameMsg{Figures: figs, Ended: true})
		lines := strings.Split(b.View(), "\n")
		if len(lines) != 4 {
			t.Fatalf("width %d: %d lines", width, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) != width {
				t.Errorf("width %d: line %q is %d wide", width, l, ansi.StringWidth(l))
			}
		}
		if !strings.Contains(lines[1], "sim-wafer") || !strings.Contains(lines[1], "1,800") {
			t.Errorf("width %d: first row %q", width, lines[1])
		}
		if width >= 80 && !strings.Contains(b.View(), "cost/req") {
			t.Errorf("width %d: no cost column:\n%s", width, b.View())
		}
		if !strings.Contains(lines[3], "72× faster") {
			t.Errorf("width %d: verdict %q", width, lines[3])
		}
	}
}

// The track column draws every provider's progress to one finish line:
// bars in proportion, all ending at the same ┃; a failure's bar is what it
// delivered before it failed.
func TestTrackSharesOneFinishLine(t *testing.T) {
	names := []string{"fast", "slow", "broken"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 1800, UserTokens: 400},
		{Status: live.Streaming, HasSpeed: true, Speed: 25, UserTokens: 100},
		{Status: live.Failed, Settled: true, UserTokens: 200},
	}
	b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(120, 5)
	b, _ = b.Update(FrameMsg{Figures: figs, Finish: 400})
	lines := strings.Split(b.View(), "\n")
	if !strings.Contains(lines[0], "finish 400 tok") {
		t.Fatalf("no finish in the header:\n%s", b.View())
	}
	full, quarter := strings.Count(lines[1], "█"), strings.Count(lines[2], "█")
	if full < 20 || quarter < full/4-1 || quarter > full/4+1 {
		t.Errorf("400 and 100 of 400 tokens draw %d and %d cells:\n%s", full, quarter, b.View())
	}
	column := func(l string) int { return ansi.StringWidth(l[:max(strings.Index(l, "┃"), 0)]) }
	if a, b, c := column(lines[1]), column(lines[2]), column(lines[3]); a != b || a != c || a == 0 {
		t.Errorf("the finish lines are at %d, %d and %d", a, b, c)
	}
	if half := strings.Count(lines[3], "█"); half < full/2-1 || half > full/2+1 {
		t.Errorf("a failure that delivered 200 of 400 tokens draws %d cells of %d:\n%s", half, full, b.View())
	}
}

// The table says how each settled provider's stream felt, before tokens,
// words/s and cost (fitColumns): at 96 columns (a 160×48 dashboard's
// leaderboard, beside its chart) with the race track, a stall shows in
// place of tokens; at 80 the stall's label does not fit and gives way
// whole to the narrower total and tokens; before any provider has settled
// with a feel there is no column of dashes.
func TestFeelColumnOutranksTokens(t *testing.T) {
	names := []string{"fast-wafer", "deep-thinker"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 2000, HasTTFT: true, Elapsed: time.Second, Tokens: 400, UserTokens: 400, Feel: "smooth"},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 250, HasTTFT: true, Elapsed: 2 * time.Second, Tokens: 300, UserTokens: 300, Feel: "2 stalls · 1.20s"},
	}
	board := func(width int, figs []live.Snapshot) string {
		b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		b.SetSize(width, 4)
		b, _ = b.Update(FrameMsg{Figures: figs, Finish: 400})
		return b.View()
	}
	if view := board(96, figs); !strings.Contains(view, "2 stalls · 1.20s") || !strings.Contains(view, "smooth") ||
		strings.Contains(view, "tokens") || strings.Contains(view, "words/s") || !strings.Contains(view, "total") || !strings.Contains(view, "┃") {
		t.Errorf("96 columns: want the feel, total and the track, no tokens or words/s:\n%s", view)
	}
	if view := board(80, figs); strings.Contains(view, "feel") || !strings.Contains(view, "total") || !strings.Contains(view, "tokens") {
		t.Errorf("80 columns: want total and tokens, the stall's label too wide:\n%s", view)
	}
	racing := slices.Clone(figs)
	for i := range racing {
		racing[i].Settled, racing[i].Status, racing[i].Feel = false, live.Streaming, ""
	}
	if view := board(96, racing); strings.Contains(view, "feel") {
		t.Errorf("no provider has settled: no feel column:\n%s", view)
	}
}

// With an SLO the table says how many streams met it, at C = 1 as at C > 1
// (bench's table does); without one there is no SLO column.
func TestSLOColumnAtConcurrency(t *testing.T) {
	names := []string{"alpha", "bravo"}
	figs := []live.Snapshot{
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 100, HasTTFT: true, Elapsed: time.Second, SLOMet: 14, SLOStreams: 16},
		{Status: live.Done, Settled: true, HasSpeed: true, Speed: 90, HasTTFT: true, Elapsed: time.Second, SLOMet: 3, SLOStreams: 16},
	}
	for _, conc := range []int{1, 16} {
		b := New(names, conc, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		b.SetSize(120, 4)
		b, _ = b.Update(FrameMsg{Figures: figs})
		if !strings.Contains(b.View(), "SLO") || !strings.Contains(b.View(), "14/16") || !strings.Contains(b.View(), "3/16") {
			t.Errorf("C=%d: no SLO column:\n%s", conc, b.View())
		}
	}
	b := New(names, 1, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	b.SetSize(120, 4)
	figs[0].SLOMet, figs[0].SLOStreams, figs[1].SLOMet, figs[1].SLOStreams = 0, 0, 0, 0
	if b, _ = b.Update(FrameMsg{Figures: figs}); strings.Contains(b.View(), "SLO") {
		t.Errorf("no SLO, yet an SLO column:\n%s", b.View())
	}
}
