package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/probes"
)

// FrameInterval is how often the dashboard redraws: the relay hands the
// program a batch of updates that often, and the batch is the frame. 20
// frames a second, as smooth as a reader follows figures and bars change,
// for two thirds of the CPU that 30 would take (docs/BENCHMARKS.md,
// "Dashboard CPU").
const FrameInterval = time.Second / 20

// updatesBuffer is the race's update channel capacity. The relay does not
// wait on the channel: a receiver waiting there is woken by every update,
// so it takes what has piled up once a frame, when the frame is due. Text
// events do not come through it: the relay reads each stream's record
// where its probe writes it (probes.SharedEvents), once a frame. What
// does is a record a stream, before the release, then tool-call deltas
// and each stream's end; probes never wait on the dashboard as long as a
// frame's fit the buffer (a tool-call race of 8 × 1,024 streams sends
// about 40,000 argument fragments a frame).
const updatesBuffer = 1 << 16

// A Source is where one race's events come from: a live race of the
// providers (liveRace, the default) or a recording replayed
// (Options.Source). Run calls released once, before any event, with the
// clock the dashboard reads the race time from; sends on updates every
// stream's record (Update.Shared, where its events are appended), then its
// tool deltas and its result; and returns results[provider][stream] once
// every stream has ended. Cancelling ctx ends the race.
type Source interface {
	Run(ctx context.Context, released func(Clock), updates chan<- probes.Update) [][]probes.Result
}

// A Clock is the race time on screen: what the view reads instead of
// time.Since(release). A replay's clock may pause, scrub or run faster.
type Clock interface {
	Now() time.Duration
}

// wallClock is a live race's clock: time since its release.
type wallClock time.Time

func (c wallClock) Now() time.Duration { return time.Since(time.Time(c)) }

// liveRace is a race of real (or simulated) providers over HTTP.
type liveRace struct{ probes.Race }

func (r liveRace) Run(ctx context.Context, released func(Clock), updates chan<- probes.Update) [][]probes.Result {
	r.OnRelease = func(at time.Time) { released(wallClock(at)) }
	return r.Race.Run(ctx, updates)
}

// Messages of a race, tagged with its number so a cancelled race's late
// messages are dropped.
type (
	// releasedMsg says the race has been let go: its clock starts. It
	// comes before the race's first batch.
	releasedMsg struct {
		race  int
		clock Clock
	}
	// batchMsg is every update that arrived since the last one, one a
	// frame while the race runs, empty when none arrived: the model draws a
	// frame on each. One message a frame, not a batch and a tick apart:
	// Bubble Tea takes every message through Update, View and its
	// renderer, and the frame shows what arrived up to it. Its updates
	// are the relay's to fill again once the program takes the batch
	// after the next one: Update reads them, and keeps none.
	batchMsg struct {
		race    int
		updates []probes.Update
	}
	// raceDoneMsg follows the last batch of a race that ran to the end.
	raceDoneMsg struct {
		race    int
		results [][]probes.Result
	}
)

// runner is one race in flight: its source running and its relay.
type runner struct {
	id     int // the race's number
	cancel context.CancelFunc
	out    <-chan tea.Msg // the released message, batches, then the done message; closed when the relay ends
	done   chan struct{}  // closed when the race and the relay have both ended
	// results are what the source returned, a cancelled race's too (its
	// streams so far, marked interrupted): read them after wait.
	results [][]probes.Result
}

// startRace runs src in the background. Its updates go to a large
// buffered channel that a relay empties into a batch once per frame; the
// program takes the batch with next(). If the program is slow to take it,
// updates keep piling into the next batch: a slow frame never slows a
// stream.
func startRace(ctx context.Context, id int, src Source) *runner {
	ctx, cancel := context.WithCancel(ctx)
	released := make(chan Clock, 1)
	updates := make(chan probes.Update, updatesBuffer)
	results := make(chan [][]probes.Result, 1)
	out := make(chan tea.Msg)
	r := &runner{id: id, cancel: cancel, out: out, done: make(chan struct{})}
	raced := make(chan struct{})
	go func() {
		defer close(raced)
		r.results = src.Run(ctx, func(c Clock) { released <- c }, updates)
		results <- r.results
		close(updates) // Run has returned: no probe sends any more
	}()
	go func() {
		relay(ctx, id, released, updates, results, out)
		<-raced
		cancel()
		close(r.done)
	}()
	return r
}

// relay hands the program the released message, then a batch of updates
// every frame (empty when none came), and ends with the race's results. No
// batch leaves before the released message. Cancelled, it stops sending
// but keeps draining updates until the race has ended, so no probe blocks
// on a full channel.
//
// A batch's slice is filled again two batches later: the program asks for
// the next message (next) only once Update has recorded the batch before
// it, so when a batch is taken the one before it has been read.
func relay(ctx context.Context, id int, released <-chan Clock, updates <-chan probes.Update, results <-chan [][]probes.Result, out chan<- tea.Msg) {
	defer close(out)
	frame := time.NewTicker(FrameInterval)
	defer frame.Stop()
	var clock Clock                  // received, not yet sent
	var ready, taken []probes.Update // the batch being filled, and the one the program took last
	records := records{}             // the streams' records followed
	due := false                     // a frame is due: its batch goes even when empty
	for updates != nil || len(ready) > 0 || clock != nil {
		var send chan<- tea.Msg // nil (never chosen) until a message is ready
		var msg tea.Msg
		switch {
		case clock != nil:
			send, msg = out, releasedMsg{race: id, clock: clock}
		case released == nil && (len(ready) > 0 || due):
			send, msg = out, batchMsg{race: id, updates: ready}
		}
		select {
		case clock = <-released:
			released = nil
		case <-frame.C:
			var open bool
			if ready, open = drainUpdates(updates, ready, records); !open {
				// Run has returned: a release it made is in the buffer,
				// and none comes later.
				select {
				case clock = <-released:
				default:
				}
				updates, released = nil, nil
			}
			due = true
		case send <- msg:
			if clock != nil {
				clock = nil
			} else {
				ready, taken, due = taken[:0], ready, false
			}
		case <-ctx.Done():
			if updates != nil {
				for range updates {
				}
			}
			return
		}
	}
	select {
	case out <- raceDoneMsg{race: id, results: <-results}:
	case <-ctx.Done():
	}
}

// records are the streams' records a relay follows, by provider and
// stream: each stream's as its probe writes it (Update.Shared, given once,
// before the release), with how many of its events were handed on, until
// the stream's end, whose Result holds the whole record.
type records map[[2]int]*record

type record struct {
	shared *probes.SharedEvents
	seen   int
}

// add follows u's record when it brings one, and else appends u to batch.
func (rs records) add(batch []probes.Update, u probes.Update) []probes.Update {
	key := [2]int{u.Provider, u.Stream}
	if u.Shared != nil {
		rs[key] = &record{shared: u.Shared}
		return batch
	}
	if u.Done != nil {
		delete(rs, key)
	}
	return append(batch, u)
}

// views appends to batch a view of each record that grew (Update.Events).
func (rs records) views(batch []probes.Update) []probes.Update {
	for key, r := range rs {
		if events, ok := r.shared.ViewAfter(r.seen); ok {
			r.seen = events.Len()
			batch = append(batch, probes.Update{Provider: key[0], Stream: key[1], Events: events})
		}
	}
	return batch
}

// drainUpdates appends what is in updates to batch without waiting (rs.add),
// then the views of the records that grew; open is false once updates is
// closed (or nil: already closed).
func drainUpdates(updates <-chan probes.Update, batch []probes.Update, rs records) (_ []probes.Update, open bool) {
	open = updates != nil
drain:
	for open {
		select {
		case u, ok := <-updates:
			if open = ok; ok {
				batch = rs.add(batch, u)
			}
		default:
			break drain
		}
	}
	return rs.views(batch), open
}

// next waits for the race's next message.
func (r *runner) next() tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-r.out
		if !ok {
			return nil
		}
		return msg
	}
}

// stop cancels every stream of the race; wait returns once they have ended.
func (r *runner) stop() { r.cancel() }
func (r *runner) wait() { <-r.done }
