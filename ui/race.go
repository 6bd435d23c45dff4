package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/probes"
)

// FrameInterval is how often the dashboard redraws and how often the relay
// hands the program a batch of updates: about 30 frames a second.
const FrameInterval = time.Second / 30

// updatesBuffer is the race's update channel capacity: probes never wait on
// the dashboard, the relay drains it continuously.
const updatesBuffer = 8192

// Messages of a race, tagged with its number so a cancelled race's late
// messages are dropped.
type (
	// batchMsg is every update that arrived since the last one: at most one per frame.
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

// runner is one race in flight: the race itself and its relay.
type runner struct {
	cancel context.CancelFunc
	out    <-chan tea.Msg // batches, then the done message; closed when the relay ends
	done   chan struct{}  // closed when the race and the relay have both ended
}

// startRace runs race in the background. Its updates go to a large
// buffered channel that a relay drains at once into a pending batch; once
// per frame the pending batch becomes ready for the program, which takes
// it with next(). If the program is slow to take it, updates keep piling
// into the next batch: a slow frame never slows a stream.
func startRace(ctx context.Context, id int, race probes.Race) *runner {
	ctx, cancel := context.WithCancel(ctx)
	updates := make(chan probes.Update, updatesBuffer)
	results := make(chan [][]probes.Result, 1)
	out := make(chan tea.Msg)
	r := &runner{cancel: cancel, out: out, done: make(chan struct{})}
	raced := make(chan struct{})
	go func() {
		defer close(raced)
		results <- race.Run(ctx, updates)
		close(updates) // Run has returned: no probe sends any more
	}()
	go func() {
		relay(ctx, id, updates, results, out)
		<-raced
		cancel()
		close(r.done)
	}()
	return r
}

// relay batches updates into frames for the program, and ends with the
// race's results. Cancelled, it stops sending but keeps draining updates
// until the race has ended, so no probe blocks on a full channel.
func relay(ctx context.Context, id int, updates <-chan probes.Update, results <-chan [][]probes.Result, out chan<- tea.Msg) {
	defer close(out)
	ticker := time.NewTicker(FrameInterval)
	defer ticker.Stop()
	var pending, ready []probes.Update
	for updates != nil || len(pending) > 0 || len(ready) > 0 {
		var send chan<- tea.Msg // nil (never chosen) until a batch is ready
		if len(ready) > 0 {
			send = out
		}
		select {
		case u, ok := <-updates:
			if !ok {
				updates = nil
				continue
			}
			pending = append(pending, u)
		case <-ticker.C:
			ready = append(ready, pending...)
			pending = nil
		case send <- batchMsg{race: id, updates: ready}:
			ready = nil
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
