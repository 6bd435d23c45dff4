package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/probes"
)

// CastFrame is how much output time one frame of a cast covers: 20 frames
// a second, smooth in a player and small in a file.
const CastFrame = 50 * time.Millisecond

// castHold keeps the final leaderboard on screen at the end of a cast.
const castHold = 3 * time.Second

// WriteCast renders opts.Replay headlessly into an asciicast v2 file
// (asciinema play, the asciinema web player): the dashboard's own model and
// View, driven with the messages a replay sends, at the recorded times, on
// a clock that steps one frame at a time, with no terminal. speed > 1 plays
// faster. Each frame rewrites the lines that changed; the last redraws the
// whole screen, the final leaderboard. Colours are whatever lipgloss's
// profile is.
func WriteCast(out io.Writer, opts Options, width, height int, speed float64) error {
	rp := opts.Replay
	if rp == nil || width <= 0 || height <= 0 || speed <= 0 {
		return fmt.Errorf("cast: need a replay, a size and a speed (got %dx%d, %v×)", width, height, speed)
	}
	clock := &stepClock{}
	opts.Source = func(probes.Race) Source { return heldSource{} } // the cast sends the race's messages itself
	m := newModel(context.Background(), opts)
	m.c.cast = true
	m.replay.clock.change(func(c *ReplayClock) { c.speed, c.paused = speed, false }) // the header shows the cast's speed
	m = apply(m, tea.WindowSizeMsg{Width: width, Height: height})
	m = apply(m, raceAgainMsg{})

	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"version": 2, "width": width, "height": height,
		"timestamp": rp.RecordedAt.Unix(), "title": "tpsrace replay", "env": map[string]string{"TERM": "xterm-256color"}}); err != nil {
		return err
	}
	emit := func(at time.Duration, data string) error {
		return enc.Encode([]any{at.Seconds(), "o", data})
	}
	if err := emit(0, "\x1b[?25l"); err != nil { // no cursor
		return err
	}
	// Presenter mode counts down first, one second a number, at any speed.
	var lead time.Duration
	for left := countdownFrom - 1; m.s.phase == phaseCountdown; left-- {
		if err := emit(lead, screen(m.View())); err != nil {
			return err
		}
		lead += time.Second
		m = apply(m, countdownMsg{race: m.s.id, left: left})
	}
	defer func() {
		m.races.current.stop()
		m.shutdown()
	}()
	m = apply(m, releasedMsg{race: m.s.id, clock: clock})
	items, last := rp.items(), ""
	// Frames redraw only the lines that changed, which keeps a cast small;
	// the last frame redraws the whole screen.
	for t := time.Duration(0); ; t += CastFrame {
		raceTime := time.Duration(float64(t) * speed)
		clock.set(raceTime)
		var due []probes.Update
		for len(items) > 0 && items[0].at <= raceTime {
			due, items = append(due, items[0].u), items[1:]
		}
		if len(due) > 0 {
			m = apply(m, batchMsg{race: m.s.id, updates: due})
		}
		if len(items) == 0 {
			m = apply(m, raceDoneMsg{race: m.s.id, results: rp.Results})
		} else {
			m = apply(m, frameMsg{tick: m.tick})
		}
		if len(items) == 0 { // the final leaderboard, whole, then held
			if err := emit(lead+t, screen(m.View())); err != nil {
				return err
			}
			return emit(lead+t+castHold, "")
		}
		if view := m.View(); view != last {
			if err := emit(lead+t, redraw(last, view)); err != nil {
				return err
			}
			last = view
		}
	}
}

// screen redraws a whole view from the top left corner.
func screen(view string) string {
	return "\x1b[H" + strings.ReplaceAll(view, "\n", "\x1b[K\r\n") + "\x1b[K\x1b[J"
}

// redraw turns the screen showing before into after: each changed line
// rewritten in place (the first frame, with nothing before, whole).
func redraw(before, after string) string {
	if before == "" {
		return screen(after)
	}
	old, lines := strings.Split(before, "\n"), strings.Split(after, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i >= len(old) || old[i] != line {
			fmt.Fprintf(&b, "\x1b[%d;1H%s\x1b[K", i+1, line)
		}
	}
	return b.String()
}

func apply(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg) // the cast runs no commands: it sends every message itself
	return next.(Model)
}

// stepClock is a cast's race time, set frame by frame.
type stepClock struct{ now atomic.Int64 }

func (c *stepClock) Now() time.Duration    { return time.Duration(c.now.Load()) }
func (c *stepClock) set(now time.Duration) { c.now.Store(int64(now)) }

// heldSource races nothing until it is cancelled.
type heldSource struct{}

func (heldSource) Run(ctx context.Context, _ func(Clock), _ chan<- probes.Update) [][]probes.Result {
	<-ctx.Done()
	return nil
}
