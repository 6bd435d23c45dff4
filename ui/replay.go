package ui

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"tpsrace/probes"
)

// Replay is a recorded race shown again in the dashboard (tpsrace replay):
// its events reach the lanes at their recorded times on a clock that can
// pause, scrub and run from 0.1× to 10×. Nothing is sent over a network.
type Replay struct {
	Results    [][]probes.Result // [provider][stream], in Config.Providers order
	RecordedAt time.Time
	// Made says when and by which tpsrace build it was recorded
	// (recording.Header.Made), for the help page; "" says nothing.
	Made string
	// Truncation says what a broken recording lost
	// (recording.Recording.Truncation), on screen for as long as the replay
	// runs; "" for a whole recording. Cut: this race is the one the break
	// fell in, never finished.
	Truncation string
	Cut        bool
	clock      *replayClock
}

// replaySpeeds are what `+` and `-` step through.
var replaySpeeds = []float64{0.1, 0.25, 0.5, 1, 2, 4, 10}

// replayPoll is how often a replay looks at its clock for events that are
// due. Lateness never bends a figure: every figure comes from the recorded
// times, not from when the event reached the screen.
const replayPoll = 5 * time.Millisecond

// length is the recorded race's length: the end of its last stream.
func (r *Replay) length() time.Duration {
	var end time.Duration
	for _, streams := range r.Results {
		for _, res := range streams {
			end = max(end, res.End)
		}
	}
	return end
}

// step is how far ←/→ scrub: a tenth of the race, at least 100ms.
func (r *Replay) step() time.Duration { return max(r.length()/10, 100*time.Millisecond) }

// source plays the recorded race from the clock's position.
func (r *Replay) source(probes.Race) Source { return replaySource{r} }

// replayItem is one update due at a recorded time.
type replayItem struct {
	at time.Duration
	u  probes.Update
}

// items are every stream's events and then its result, in recorded order.
func (r *Replay) items() []replayItem {
	var items []replayItem
	for p, streams := range r.Results {
		for s := range streams {
			res := &streams[s]
			for _, e := range res.Events.All() {
				items = append(items, replayItem{e.At, probes.Update{Provider: p, Stream: s, Event: &e}})
			}
			items = append(items, replayItem{res.End, probes.Update{Provider: p, Stream: s, Done: res}})
		}
	}
	slices.SortStableFunc(items, func(a, b replayItem) int { return cmp.Compare(a.at, b.at) })
	return items
}

type replaySource struct{ r *Replay }

// Run sends every update once the clock has reached its recorded time (all
// at once for the part a scrub skipped) and returns the recorded results.
func (s replaySource) Run(ctx context.Context, released func(Clock), updates chan<- probes.Update) [][]probes.Result {
	released(s.r.clock)
	items := s.r.items()
	poll := time.NewTicker(replayPoll)
	defer poll.Stop()
	for len(items) > 0 {
		now := s.r.clock.Now()
		for len(items) > 0 && items[0].at <= now {
			updates <- items[0].u
			items = items[1:]
		}
		if len(items) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return nil
		case <-poll.C:
		}
	}
	return s.r.Results
}

// replayClock is a replay's race time: it runs at speed from pos (the race
// time at anchor) unless paused. The source reads it from its goroutine,
// the keys set it from the program's.
type replayClock struct {
	mu     sync.Mutex
	pos    time.Duration
	anchor time.Time
	speed  float64
	paused bool
}

func newReplayClock() *replayClock { return &replayClock{anchor: time.Now(), speed: 1} }

func (c *replayClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at(time.Now())
}

func (c *replayClock) at(t time.Time) time.Duration {
	if c.paused {
		return c.pos
	}
	return c.pos + time.Duration(float64(t.Sub(c.anchor))*c.speed)
}

// change rebases the clock at the present instant, then applies f.
func (c *replayClock) change(f func(c *replayClock)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.pos, c.anchor = c.at(now), now
	f(c)
}

func (c *replayClock) jump(to time.Duration) { c.change(func(c *replayClock) { c.pos = max(to, 0) }) }
func (c *replayClock) togglePause()          { c.change(func(c *replayClock) { c.paused = !c.paused }) }

// faster steps the speed up (by > 0) or down through replaySpeeds.
func (c *replayClock) faster(by int) {
	c.change(func(c *replayClock) {
		i := slices.Index(replaySpeeds, c.speed)
		c.speed = replaySpeeds[min(max(i+by, 0), len(replaySpeeds)-1)]
	})
}

func (c *replayClock) state() (speed float64, paused bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.speed, c.paused
}

// ReplayKeyMap is the keys of a replay, matched before the dashboard's.
type ReplayKeyMap struct {
	Pause, Back, Forward, Faster, Slower, Restart key.Binding
}

// DefaultReplayKeyMap is the replay's keys.
func DefaultReplayKeyMap() ReplayKeyMap {
	return ReplayKeyMap{
		Pause:   key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pause")),
		Back:    key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "scrub")),
		Forward: key.NewBinding(key.WithKeys("right")),
		Faster:  key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "speed")),
		Slower:  key.NewBinding(key.WithKeys("-", "_")),
		Restart: key.NewBinding(key.WithKeys("r", "enter"), key.WithHelp("r", "from the start")),
	}
}

// replayKeys is the help of a replay: its keys, then the dashboard's that still apply.
type replayKeys struct {
	replay ReplayKeyMap
	KeyMap
}

func (k replayKeys) ShortHelp() []key.Binding {
	r := k.replay
	return []key.Binding{r.Pause, r.Back, r.Faster, r.Restart, k.Zoom, k.Save, k.Help, k.Quit}
}

func (k replayKeys) FullHelp() [][]key.Binding {
	r := k.replay
	return [][]key.Binding{{r.Pause, r.Back, r.Faster, r.Restart}, {k.Zoom, k.Back, k.Focus, k.FocusBack}, {k.Save, k.Pause, k.Help, k.Quit}}
}

// replayKey handles a replay's keys; handled is false for the others. A
// scrub back replays the race again up to the new position (the lanes
// hold what has arrived, so the past is rebuilt, not undone).
func (m *Model) replayKey(msg tea.KeyMsg) (cmd tea.Cmd, handled bool) {
	rp, k := m.opts.Replay, m.replayKeys
	switch {
	case key.Matches(msg, k.Pause) && !m.zoomed():
		rp.clock.togglePause()
	case key.Matches(msg, k.Forward):
		rp.clock.jump(m.s.now() + rp.step())
	case key.Matches(msg, k.Back):
		rp.clock.jump(m.s.now() - rp.step())
		m.stop()
		m.retire()
		return m.release(), true // at once: presenter mode's countdown is for a start, not a scrub
	case key.Matches(msg, k.Faster):
		rp.clock.faster(1)
	case key.Matches(msg, k.Slower):
		rp.clock.faster(-1)
	case key.Matches(msg, k.Restart):
		rp.clock.jump(0)
		return m.startRace(), true
	case key.Matches(msg, m.keys.Edit, m.keys.Concurrency):
		m.say(true, "a replay shows the recorded race: its prompt and concurrency are fixed")
	default:
		return nil, false
	}
	m.compose()
	return nil, true
}

// replayStatus is the header's part for a replay: REPLAY, when it was
// recorded, its speed.
func (m *Model) replayStatus() string {
	rp, s := m.opts.Replay, m.styles
	speed, paused := rp.clock.state()
	text := s.Simulated.Render(" REPLAY ") + s.Label.Render(" recorded "+rp.RecordedAt.UTC().Format("2006-01-02 15:04 UTC")+" · ") +
		s.Status.Render(strconv.FormatFloat(speed, 'f', -1, 64)+"×")
	if paused {
		text += s.Paused.Render(" ⏸")
	}
	if rp.Truncation != "" {
		text += " " + s.Simulated.Render(" TRUNCATED ")
	}
	return text
}

// truncationLine says what the replayed recording lost, under the header;
// "" for a whole recording.
func (m *Model) truncationLine() string {
	rp := m.opts.Replay
	if rp == nil || rp.Truncation == "" {
		return ""
	}
	return ansi.Truncate(m.styles.Paused.Render("TRUNCATED: ")+m.styles.Label.Render(rp.Truncation+"; only whole races count"), m.width, "…")
}
