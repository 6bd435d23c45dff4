package lane

import (
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"tpsrace/probes"
	"tpsrace/ui/internal/draw"
)

func TestGapStrip(t *testing.T) {
	const ms = time.Millisecond
	var events probes.Events
	at := time.Duration(0)
	// The first event has no gap; then gaps of 0, 1 ms, 16 ms, 250 ms (the
	// stall threshold, not a stall), a 400 ms pause and 2 ms.
	for _, gap := range []time.Duration{0, 0, ms, 16 * ms, 250 * ms, 400 * ms, 2 * ms} {
		at += gap
		events.Append(probes.Event{At: at, Content: "x", Tokens: 1})
	}
	var plain draw.Paint
	if got, want := GapStrip(events, 100, plain, plain), " ▁▁▄▇█▂"; got != want {
		t.Errorf("strip %q, want %q", got, want)
	}
	// The last 3 events: the first of them keeps its gap to the event before.
	if got, want := GapStrip(events, 3, plain, plain), "▇█▂"; got != want {
		t.Errorf("the last 3 events: %q, want %q", got, want)
	}
	if GapStrip(events, 0, plain, plain) != "" || GapStrip(probes.Events{}, 5, plain, plain) != "" {
		t.Error("no room or no events: want an empty strip")
	}
	// The stall, and only it, is painted stall.
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.ANSI)
	stall := draw.NewPaint(r.NewStyle().Underline(true))
	if stall.Render("█") == "█" {
		t.Fatal("the stall paint draws no escapes")
	}
	if got, want := GapStrip(events, 100, plain, stall), " ▁▁▄▇"+stall.Render("█")+"▂"; got != want {
		t.Errorf("painted strip %q, want %q", got, want)
	}
}
