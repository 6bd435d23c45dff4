package ui

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/probes"
	"tpsrace/ui/internal/draw"
)

// Replay is a recorded race shown again in the dashboard (tpsrace replay):
// its events reach the lanes at their recorded times on a clock that can
// pause, scrub and run from 0.1× to 10×. Nothing is sent over a network.
type Replay struct {
	Results [][]probes.Result // [provider][stream], in Config.Providers order
	// Before are the recording's races before this one: the history the
	// live dashboard refereed this race over (session.finish), so the
	// replay flags it as the live screen did.
	Before     [][][]probes.Result
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
	// Interrupted: this race is the one a stop (q, ctrl+c, SIGTERM) cut
	// short (recording.Recording.Interrupted: its last race), never finished.
	Interrupted bool
	// Clock is the race time the replay runs on; nil: a new one on the
	// wall clock. The dashboard reads and steers it, and never replaces it.
	Clock *ReplayClock
}

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

// playback hands on a recorded race as its time passes, as a live race
// does: each stream's events appended to a record of its own
// (probes.SharedEvents, put before any event), its tool deltas and its end
// put as updates.
type playback struct {
	items []replayItem // what is still to come, in recorded order
	put   func(probes.Update)
}

// replayItem is an event or an update due at a recorded time.
type replayItem struct {
	at     time.Duration
	u      probes.Update        // a tool delta or a stream's end, where record is nil
	record *probes.SharedEvents // the stream's record, which event goes to
	event  probes.Event
}

// play puts every stream's record and returns the playback of the race.
func (r *Replay) play(put func(probes.Update)) *playback {
	var items []replayItem
	for p, streams := range r.Results {
		for s := range streams {
			res := &streams[s]
			record := probes.NewSharedEvents()
			put(probes.Update{Provider: p, Stream: s, Shared: record})
			for _, e := range res.Events.All() {
				items = append(items, replayItem{at: e.At, record: record, event: e})
			}
			for _, d := range res.ToolDeltas {
				items = append(items, replayItem{at: d.At, u: probes.Update{Provider: p, Stream: s, Tool: &d}})
			}
			items = append(items, replayItem{at: res.End, u: probes.Update{Provider: p, Stream: s, Done: res}})
		}
	}
	slices.SortStableFunc(items, func(a, b replayItem) int { return cmp.Compare(a.at, b.at) })
	return &playback{items: items, put: put}
}

// until hands on everything recorded by race time now (all at once for the
// part a scrub skipped) and says whether anything is left.
func (pb *playback) until(now time.Duration) (more bool) {
	for len(pb.items) > 0 && pb.items[0].at <= now {
		if it := pb.items[0]; it.record != nil {
			it.record.Append(it.event)
		} else {
			pb.put(it.u)
		}
		pb.items = pb.items[1:]
	}
	return len(pb.items) > 0
}

// replaySource plays the recorded race from the clock's position.
type replaySource struct {
	r     *Replay
	clock *ReplayClock
}

// Run plays the race on the clock and returns the recorded results.
func (s replaySource) Run(ctx context.Context, released func(Clock), updates chan<- probes.Update) [][]probes.Result {
	played := s.r.play(func(u probes.Update) { updates <- u })
	released(s.clock)
	poll := time.NewTicker(replayPoll)
	defer poll.Stop()
	for played.until(s.clock.Now()) {
		select {
		case <-ctx.Done():
			return nil
		case <-poll.C:
		}
	}
	return s.r.Results
}

// replayer is the root's child for a replay: the recorded race, the clock
// it plays on and its keys. Its Update steers the clock and says what the
// root must do about the race on screen; its View is the header's part.
type replayer struct {
	c     *common
	rp    *Replay
	clock *ReplayClock
	keys  ReplayKeyMap
}

func newReplayer(c *common, rp *Replay) *replayer {
	clock := rp.Clock
	if clock == nil {
		clock = NewReplayClock(nil)
	}
	return &replayer{c: c, rp: rp, clock: clock, keys: DefaultReplayKeyMap()}
}

// source plays the recording on the replayer's clock.
func (r *replayer) source(probes.Race) Source { return replaySource{r.rp, r.clock} }

// replayAction is what a key asks of the root.
type replayAction int

const (
	replayIgnored      replayAction = iota // not a replay key: the dashboard's keys see it
	replayRedraw                           // the clock changed: redraw the header
	replayScrubbedBack                     // replay the race again up to the clock's new position
	replayRestarted                        // start the race again from 0
	replayFixed                            // a key that changes the race: a replay refuses it
)

// Update handles a key at race time now; space does not pause a zoomed
// lane's replay (space scrolls the lane there).
func (r *replayer) Update(msg tea.KeyMsg, now time.Duration, zoomed bool) replayAction {
	k := r.keys
	switch {
	case key.Matches(msg, k.Pause) && !zoomed:
		r.clock.togglePause()
	case key.Matches(msg, k.Forward):
		r.clock.jump(now + r.rp.step())
	case key.Matches(msg, k.Back):
		r.clock.jump(now - r.rp.step())
		return replayScrubbedBack
	case key.Matches(msg, k.Faster):
		r.clock.faster(1)
	case key.Matches(msg, k.Slower):
		r.clock.faster(-1)
	case key.Matches(msg, k.Restart):
		r.clock.jump(0)
		return replayRestarted
	case key.Matches(msg, r.c.keys.Edit, r.c.keys.Concurrency):
		return replayFixed
	default:
		return replayIgnored
	}
	return replayRedraw
}

// View is the header's parts for a replay: REPLAY, when it was recorded,
// its speed (ranked as header() ranks the others).
func (r *replayer) View() []draw.Segment {
	s := r.c.paint
	speed, paused := r.clock.state()
	text := s.Status.Render(strconv.FormatFloat(speed, 'f', -1, 64) + "×")
	if paused {
		text += s.Paused.Render(" ⏸")
	}
	segs := []draw.Segment{
		{Text: s.Simulated.Render(" REPLAY "), Rank: rankTitle},
		{Text: s.Label.Render("recorded " + r.rp.RecordedAt.UTC().Format("2006-01-02 15:04 UTC")), Rank: rankRecorded},
		{Text: text, Rank: rankSpeed},
	}
	if r.rp.Truncation != "" { // never gives way: the race on screen may be incomplete
		segs = append(segs, draw.Segment{Text: s.Simulated.Render(" TRUNCATED "), Rank: rankTitle})
	}
	if r.rp.Interrupted { // never gives way: the race on screen was stopped
		segs = append(segs, draw.Segment{Text: s.Simulated.Render(" INTERRUPTED "), Rank: rankTitle})
	}
	return segs
}

// truncationLine says what the replayed recording lost, under the header;
// "" for a whole recording.
func (r *replayer) truncationLine() string {
	if r.rp.Truncation == "" {
		return ""
	}
	s, lead := r.c.styles, "TRUNCATED: "
	return s.Paused.Render(lead) + s.Label.Render(draw.Words(r.rp.Truncation+"; only whole races count", r.c.width-len(lead)))
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
