package speedchart

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/ui/live"
	"tpsrace/ui/theme"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

const ms = time.Millisecond

// provider streams n one-token events every gap from first; end > 0 ends it.
func provider(i int, name string, first, gap time.Duration, n int, end time.Duration, err error) *live.Lane {
	p := live.NewLane(i, config.Provider{Name: name}, 1, 0)
	events := make([]probes.Event, n)
	for k := range events {
		events[k] = probes.Event{At: first + time.Duration(k)*gap, Content: " w", Tokens: 1}
	}
	p.Record(probes.Update{Events: probes.EventsOf(events...)})
	if end > 0 {
		p.Record(probes.Update{Done: &probes.Result{Events: probes.EventsOf(events...), End: end, Err: err}})
	}
	return p
}

func chart(t *testing.T, plot Plot, w, h int, msg FrameMsg, names ...string) []string {
	t.Helper()
	c := New(names, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	c.Plot = plot
	c.SetSize(w, h)
	c, _ = c.Update(msg)
	lines := strings.Split(c.View(), "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), h, c.View())
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != w {
			t.Errorf("line %q is %d wide", l, ansi.StringWidth(l))
		}
	}
	return lines
}

func isBraille(r rune) bool { return r >= 0x2800 && r <= 0x28ff }

// The tokens plot is the race: the provider that finished reaches the top
// (the finish line) where it ended and its line stops there, labelled at
// the right edge of its row; the one still streaming is lower; a failed
// provider draws nothing.
func TestTokensPlotShowsTheRace(t *testing.T) {
	fast := provider(0, "fast", 100*ms, ms, 400, 500*ms, nil)
	slow := provider(1, "slow", 100*ms, 20*ms, 95, 0, nil)
	failed := provider(2, "broken", 0, 0, 0, 50*ms, &probes.Failure{Kind: probes.KindHTTP, Status: 500})
	lines := chart(t, Tokens, 60, 12, FrameMsg{Until: 2 * time.Second, Providers: []*live.Lane{fast, slow, failed}, Finish: 400},
		"fast", "slow", "broken")
	view := strings.Join(lines, "\n")
	top := lines[1]
	if !strings.HasPrefix(strings.TrimSpace(top), "400┤") || !strings.Contains(top, "● fast") {
		t.Fatalf("the top row is the finish line, where fast ends:\n%s", view)
	}
	at := strings.IndexRune(top, '●')
	for _, r := range top[at+len("●") : strings.LastIndex(top, "● fast")] {
		if isBraille(r) {
			t.Fatalf("fast's line goes on past its end:\n%s", view)
		}
	}
	// fast ended at 0.5s of 2s: its marker sits a quarter of the way along.
	x := ansi.StringWidth(top[:at]) - ansi.StringWidth("400┤")
	if x < 8 || x > 14 {
		t.Errorf("fast's end is at column %d of the plot, want about a quarter of 50:\n%s", x, view)
	}
	slowRow := -1
	for k, l := range lines {
		if strings.Contains(l, "■ slow") {
			slowRow = k
		}
	}
	if slowRow < 6 || slowRow > 9 { // 95 of 400 tokens: about a quarter up 10 rows
		t.Errorf("slow is labelled on row %d:\n%s", slowRow, view)
	}
	if strings.Contains(view, "broken") {
		t.Errorf("a failed provider draws nothing:\n%s", view)
	}
	if !strings.Contains(lines[0], "tokens so far") || !strings.Contains(lines[len(lines)-1], "2.00s") {
		t.Errorf("title or time axis missing:\n%s", view)
	}
}

// A line that ends at the plot's right edge (here one still streaming) keeps
// its label on its own row, right beside its marker, even where the lines
// that finished before it would push labels there: pushed a row away, its
// marker sat beside another provider's label and read "◆ ▲ c". Its marker
// keys the name there, once: not "◆ ◆ d".
func TestEdgeLabelStaysBesideItsMarker(t *testing.T) {
	var lanes []*live.Lane
	for i, name := range []string{"a", "b", "c"} {
		lanes = append(lanes, provider(i, name, 100*ms, ms, 400, 500*ms, nil))
	}
	lanes = append(lanes, provider(3, "d", 100*ms, 5*ms, 200, 0, nil)) // half way at the edge: the third row of five
	lines := chart(t, Tokens, 40, 7, FrameMsg{Until: 1100 * ms, Providers: lanes, Finish: 400}, "a", "b", "c", "d")
	view := strings.Join(lines, "\n")
	for _, l := range lines {
		if !strings.HasSuffix(strings.TrimRight(l, " "), " d") {
			continue
		}
		if !strings.HasSuffix(strings.TrimRight(l, " "), "◆ d") || strings.Count(l, "◆") != 1 {
			t.Fatalf("d's label is not beside its marker, once:\n%s", view)
		}
		return
	}
	t.Fatalf("no label for d:\n%s", view)
}

// Two lines that end in one cell at the edge (a merged race's lanes of one
// provider) show the last one's marker: the name beside it is that line's,
// and the other keeps its own marker before its name. Names cut to fit
// keep their probe, which tells the lanes apart.
func TestLinesEndingInOneCellKeepTheirOwnMarkers(t *testing.T) {
	names := []string{"openai-gpt-4o@fra", "openai-gpt-4o@iad"}
	lanes := []*live.Lane{
		provider(0, names[0], 100*ms, 5*ms, 200, 0, nil),
		provider(1, names[1], 100*ms, 5*ms, 200, 0, nil),
	}
	lines := chart(t, Tokens, 40, 7, FrameMsg{Until: 1100 * ms, Providers: lanes, Finish: 400}, names...)
	view := strings.Join(lines, "\n")
	for _, want := range []string{"● open…@fra", "■ openai…@iad"} {
		if !strings.Contains(view, want) {
			t.Errorf("no label %q, its own marker before its name cut to keep the probe:\n%s", want, view)
		}
	}
	if strings.Count(view, "●") != 1 || strings.Count(view, "■") != 1 {
		t.Errorf("each marker once (the iad line's at the edge, beside its name):\n%s", view)
	}
}

// The speed plot uses the lanes' shared scale: a steady 300 tok/s lies on
// the row labelled 300 on a linear axis up to 600; a log scale labels its
// decades.
func TestSpeedPlotUsesTheSharedScale(t *testing.T) {
	steady := provider(0, "steady", 0, 10*ms/3, 600, 0, nil)
	lines := chart(t, Speed, 60, 11, FrameMsg{Until: 2 * time.Second, Providers: []*live.Lane{steady}, Scale: live.Scale{Top: 600}}, "steady")
	found := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "300┤") {
			found = true
			if !strings.ContainsFunc(l[len("300┤"):], isBraille) {
				t.Errorf("the 300 tok/s line is not on the row labelled 300:\n%s", strings.Join(lines, "\n"))
			}
		}
	}
	if !found {
		t.Fatalf("no row labelled 300:\n%s", strings.Join(lines, "\n"))
	}
	log := strings.Join(chart(t, Speed, 60, 14, FrameMsg{Until: 2 * time.Second, Providers: []*live.Lane{steady}, Scale: live.Scale{Top: 2000, Log: true}}, "steady"), "\n")
	for _, want := range []string{"log scale", "10┤", "100┤", "1.0k┤", "2.0k┤"} {
		if !strings.Contains(log, want) {
			t.Errorf("log plot lacks %q:\n%s", want, log)
		}
	}
}

func TestTinySizesDrawBlank(t *testing.T) {
	for _, size := range [][2]int{{0, 0}, {10, 3}, {60, 2}} {
		c := New([]string{"a"}, DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
		c.SetSize(size[0], size[1])
		if strings.TrimSpace(c.View()) != "" {
			t.Errorf("%v: %q", size, c.View())
		}
	}
}
