package ui

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/probes"
)

// CastFrame is how much output time one frame of a headless replay
// covers: 20 frames a second, the dashboard's own frame rate.
const CastFrame = 50 * time.Millisecond

// castHold keeps the final leaderboard on screen at the end of a cast or a
// picture.
const castHold = 3 * time.Second

// Frame is one screen of a headless replay: the dashboard's View, shown
// from At (output time) until the next frame.
type Frame struct {
	At   time.Duration
	View string
	// Final: the final leaderboard, held until the end PlayFrames returns.
	Final bool
}

// PlayFrames drives the dashboard's own model and View through
// opts.Replay headlessly, with the messages a replay sends, at the recorded
// times, on a clock that steps one CastFrame at a time, with no terminal:
// what a cast (WriteCast) and a picture (replay --gif, --svg) are made of.
// speed > 1 plays faster. show gets the first frame, each frame whose View
// changed and the final one, in time order; PlayFrames returns the output's
// end, the final frame plus a hold of castHold. Colours are whatever
// lipgloss's profile is.
func PlayFrames(opts Options, width, height int, speed float64, show func(Frame) error) (end time.Duration, err error) {
	rp := opts.Replay
	if rp == nil || width <= 0 || height <= 0 || speed <= 0 {
		return 0, fmt.Errorf("replay frames: need a replay, a size and a speed (got %dx%d, %v×)", width, height, speed)
	}
	clock := &stepClock{}
	opts.Source = func(probes.Race) Source { return heldSource{} } // the frames send the race's messages themselves
	m := newModel(context.Background(), opts)
	m.c.cast = true
	m.replay.clock.change(func(c *ReplayClock) { c.speed, c.paused = speed, false }) // the header shows the output's speed
	m = apply(m, tea.WindowSizeMsg{Width: width, Height: height})
	m = apply(m, raceAgainMsg{})

	// Presenter mode counts down first, one second a number, at any speed.
	var lead time.Duration
	for left := countdownFrom - 1; m.s.phase == phaseCountdown; left-- {
		if err := show(Frame{At: lead, View: m.View()}); err != nil {
			return 0, err
		}
		lead += time.Second
		m = apply(m, countdownMsg{race: m.s.id, left: left})
	}
	defer func() {
		m.races.current.stop()
		m.shutdown()
	}()
	m = apply(m, releasedMsg{race: m.s.id, clock: clock})
	var put, due []probes.Update
	played, rs, last := rp.play(func(u probes.Update) { put = append(put, u) }), records{}, ""
	for t := time.Duration(0); ; t += CastFrame {
		raceTime := time.Duration(float64(t) * speed)
		clock.set(raceTime)
		more := played.until(raceTime)
		due = due[:0]
		for _, u := range put {
			due = rs.add(due, u)
		}
		put, due = put[:0], rs.views(due) // a frame, as a live race's relay takes it
		if len(due) > 0 {
			m = apply(m, batchMsg{race: m.s.id, updates: due})
		}
		if !more { // the final leaderboard, then held
			m = apply(m, raceDoneMsg{race: m.s.id, results: rp.Results})
			return lead + t + castHold, show(Frame{At: lead + t, View: m.View(), Final: true})
		}
		if len(due) == 0 {
			m = apply(m, frameMsg{tick: m.tick})
		}
		if view := m.View(); view != last {
			if err := show(Frame{At: lead + t, View: view}); err != nil {
				return 0, err
			}
			last = view
		}
	}
}

func apply(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg) // headless: no commands run, every message is sent here
	return next.(Model)
}

// stepClock is a headless replay's race time, set frame by frame.
type stepClock struct{ now atomic.Int64 }

func (c *stepClock) Now() time.Duration    { return time.Duration(c.now.Load()) }
func (c *stepClock) set(now time.Duration) { c.now.Store(int64(now)) }

// heldSource races nothing until it is cancelled.
type heldSource struct{}

func (heldSource) Run(ctx context.Context, _ func(Clock), _ chan<- probes.Update) [][]probes.Result {
	<-ctx.Done()
	return nil
}
