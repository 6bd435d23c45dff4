package probes

import "sync"

// SharedEvents is a running stream's record as its probe writes it, for a
// reader on another goroutine that looks now and then: the dashboard's
// relay takes a view once a frame (ViewAfter). Handing the reader each event instead
// (an Update a event) cost a copy and a send per event and the reader's
// own copy of the record (docs/BENCHMARKS-DASHBOARD.md, "Eighth round"). The
// stream's Result holds the same record.
type SharedEvents struct {
	mu     sync.Mutex
	events Events // never empty of a log: the Result's Events share it
}

// NewSharedEvents is an empty record.
func NewSharedEvents() *SharedEvents { return &SharedEvents{events: Events{log: &eventLog{}}} }

// Append adds ev after the last event: from one goroutine, the writer's
// (the probe's, or a replay's).
func (sh *SharedEvents) Append(ev Event) {
	sh.mu.Lock()
	sh.events.Append(ev)
	sh.mu.Unlock()
}

// ViewAfter is the record so far, as it stands, when it has more than n
// events (ok false when not): later events do not show through it, and
// SameRecord holds between views and with the Result's record.
func (sh *SharedEvents) ViewAfter(n int) (_ Events, ok bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.events.Len() <= n {
		return Events{}, false
	}
	return sh.events.view(), true
}
