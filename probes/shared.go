package probes

import "sync"

// SharedEvents is a running stream's record as its probe writes it, for a
// reader on another goroutine that looks now and then: the dashboard's
// relay takes a view once a frame (ViewAfter). Handing the reader each event instead
// (an Update a event) cost a copy and a send per event and the reader's
// own copy of the record (docs/BENCHMARKS.md, "Eighth round"). The
// stream's Result holds the same record.
type SharedEvents struct {
	mu     sync.Mutex
	events Events // never empty of a log: the Result's Events share it
}

func newSharedEvents() *SharedEvents { return &SharedEvents{events: Events{log: &eventLog{}}} }

// append adds ev, from the probe's goroutine.
func (sh *SharedEvents) append(ev Event) {
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
