package probes

import (
	"encoding/binary"
	"iter"
	"slices"
	"sort"
	"time"
	"unsafe"
)

// Events is a stream's record of its text events, packed: a stream keeps
// thousands of them, and a 1024-stream race keeps them all. Each event is
// appended to a block of bytes as
//
//	varint(At − previous At)
//	uvarint(len(Content)<<2 | has reasoning<<1 | one token) Content
//	[uvarint(len(Reasoning)) Reasoning]  when it has reasoning
//	[uvarint(Tokens)]                    unless it is one token
//
// about 9 bytes for a one-token answer event at 20,000 tok/s (3 of time, 1
// of header, the text), where an Event with its own strings takes 60 or
// more. Every 32nd event is marked (where it starts, the At before it and
// the tokens before it), so Event(i) decodes at most 31 others, and the sums
// of tokens (TokensBefore, SearchTokens) and the lookup by time (Search)
// cost no more as a stream grows. Times, texts and counts come back
// exactly as they went in.
//
// The blocks start at 256 bytes and double to 4 KiB, and a full one is
// left as it is for a new one: a record grown as one buffer copied itself
// at every growth and left about four times its size as garbage over a
// stream, which the heap held at its peak (docs/BENCHMARKS.md, "Scale on
// one box"). No event spans two blocks; one longer than 4 KiB gets a block
// of its size.
//
// The texts an Event carries are views of a block, not copies: bytes once
// appended are never moved or written again, so they are as immutable as
// any string. A copy of a non-empty Events shares its record with the
// original, as a slice header would, but appending through either is seen
// by both, so no text can change under a reader. The zero value is an
// empty record.
type Events struct{ log *eventLog }

type eventLog struct {
	blocks [][]byte    // the events, packed
	marks  []eventMark // marks[k] is event 32k
	n      int
	last   time.Duration // At of the last event
	tokens int           // Tokens of every event

	lastAt     place         // where the last event starts, for Last
	lastBefore time.Duration // At of the event before it

	origin *eventLog // the record this is a view of (view); nil for a record itself
}

// place is where an event starts: a block and the offset in it (int32:
// an event of 2 GiB would not have been read).
type place struct{ block, off int32 }

type eventMark struct {
	at     place
	before time.Duration // At of the event before it (0 for the first)
	tokens int           // Tokens of the events before it
}

const (
	markEvery    = 32
	oneToken     = 1 // header bits
	hasReasoning = 2

	firstBlock = 256
	maxBlock   = 4 << 10
)

// EventsOf is a record of the given events, in order.
func EventsOf(events ...Event) Events {
	var e Events
	for _, ev := range events {
		e.Append(ev)
	}
	return e
}

// view is the record as it stands, which has events, for a reader on
// another goroutine while its writer goes on appending
// (SharedEvents.ViewAfter, under the writer's lock). The bytes and marks it covers are never written again; what an
// Append changes (the last block's length, the counts) is copied, so later
// appends do not show through it. Appending to the view itself starts a
// block and marks of its own.
func (e Events) view() Events {
	l := e.log
	v := *l
	v.blocks = slices.Clone(l.blocks)
	last := len(v.blocks) - 1
	v.blocks[last] = slices.Clip(v.blocks[last])
	v.marks = slices.Clip(l.marks)
	v.origin = l.root()
	return Events{&v}
}

func (l *eventLog) root() *eventLog {
	if l.origin != nil {
		return l.origin
	}
	return l
}

// SameRecord is whether e and o are one record (copies of one Events, or
// two zero values) or views of it.
func (e Events) SameRecord(o Events) bool {
	return e.log == o.log || e.log != nil && o.log != nil && e.log.root() == o.log.root()
}

// Len is the number of events.
func (e Events) Len() int {
	if e.log == nil {
		return 0
	}
	return e.log.n
}

// Append adds ev after the last event.
func (e *Events) Append(ev Event) {
	if e.log == nil {
		e.log = &eventLog{}
	}
	l := e.log
	// Four varints at most besides the texts.
	at := l.room(4*binary.MaxVarintLen64 + len(ev.Content) + len(ev.Reasoning))
	if l.n%markEvery == 0 {
		l.marks = append(l.marks, eventMark{at: at, before: l.last, tokens: l.tokens})
	}
	l.lastAt, l.lastBefore = at, l.last
	head := uint64(len(ev.Content)) << 2
	if ev.Reasoning != "" {
		head |= hasReasoning
	}
	if ev.Tokens == 1 {
		head |= oneToken
	}
	b := l.blocks[at.block] // has the room: appending never moves it
	b = binary.AppendVarint(b, int64(ev.At-l.last))
	b = binary.AppendUvarint(b, head)
	b = append(b, ev.Content...)
	if ev.Reasoning != "" {
		b = binary.AppendUvarint(b, uint64(len(ev.Reasoning)))
		b = append(b, ev.Reasoning...)
	}
	if ev.Tokens != 1 {
		b = binary.AppendVarint(b, int64(ev.Tokens))
	}
	l.blocks[at.block] = b
	l.last = ev.At
	l.tokens += ev.Tokens
	l.n++
}

// room is where an event of at most n bytes goes: the end of the last
// block, or a new block when that has less room.
func (l *eventLog) room(n int) place {
	k := len(l.blocks) - 1
	if k < 0 || cap(l.blocks[k])-len(l.blocks[k]) < n {
		size := firstBlock
		if k >= 0 {
			size = min(2*cap(l.blocks[k]), maxBlock)
		}
		l.blocks = append(l.blocks, make([]byte, 0, max(size, n)))
		k++
	}
	return place{int32(k), int32(len(l.blocks[k]))}
}

// Event is event i (0 ≤ i < Len()).
func (e Events) Event(i int) Event {
	if i < 0 || i >= e.Len() {
		panic("probes: event index out of range")
	}
	m := e.log.marks[i/markEvery]
	p, at := m.at, m.before
	var ev Event
	for range i%markEvery + 1 {
		p = e.log.decode(p, at, &ev)
		at = ev.At
	}
	return ev
}

// First and Last are the first and the last event; ok is false when there
// are none. Each decodes one event: the dashboard asks for them every frame.
func (e Events) First() (Event, bool) {
	if e.Len() == 0 {
		return Event{}, false
	}
	var ev Event
	e.log.decode(place{}, 0, &ev)
	return ev, true
}

func (e Events) Last() (Event, bool) {
	if e.Len() == 0 {
		return Event{}, false
	}
	var ev Event
	e.log.decode(e.log.lastAt, e.log.lastBefore, &ev)
	return ev, true
}

// All yields every event with its index, in order.
func (e Events) All() iter.Seq2[int, Event] { return e.From(0) }

// From yields the events from index i on (0 ≤ i ≤ Len()) with their
// indices, in order: a seek to the mark before i, then the walk forward.
// An event appended while it runs is not yielded.
func (e Events) From(i int) iter.Seq2[int, Event] {
	if i < 0 || i > e.Len() {
		panic("probes: event index out of range")
	}
	return func(yield func(int, Event) bool) {
		for k, ev := range e.decodedFrom(i) {
			if !yield(k, *ev) {
				return
			}
		}
	}
}

// Decoded yields every event with its index, in order, as one Event that
// each step overwrites: for a reader of every event that keeps none
// (metrics.Compute, once per stream). A copy of an Event just decoded
// waits on decode's writes of its fields (a store-forwarding stall): a
// fifth of Compute's time (BenchmarkCompute).
func (e Events) Decoded() iter.Seq2[int, *Event] { return e.decodedFrom(0) }

// decodedFrom is the walk of From and Decoded: the events from index i on,
// decoded into one Event.
func (e Events) decodedFrom(i int) iter.Seq2[int, *Event] {
	return func(yield func(int, *Event) bool) {
		if e.log == nil {
			return
		}
		n := e.log.n // what is there now: a later Append is not yielded
		if i == n {
			return
		}
		m := e.log.marks[i/markEvery]
		p, at := m.at, m.before
		var ev Event
		for k := i - i%markEvery; k < n; k++ {
			p = e.log.decode(p, at, &ev)
			at = ev.At
			if k >= i && !yield(k, &ev) {
				return
			}
		}
	}
}

// TokensBefore is the sum of Tokens of the first i events (0 ≤ i ≤ Len()):
// the record keeps the running sum at every mark, so it decodes at most 31
// events, none for i = Len().
func (e Events) TokensBefore(i int) int {
	if i < 0 || i > e.Len() {
		panic("probes: event index out of range")
	}
	switch {
	case i == 0:
		return 0
	case i == e.log.n:
		return e.log.tokens
	}
	m := e.log.marks[i/markEvery]
	tokens, p, at := m.tokens, m.at, m.before
	var ev Event
	for range i % markEvery {
		p = e.log.decode(p, at, &ev)
		tokens, at = tokens+ev.Tokens, ev.At
	}
	return tokens
}

// SearchTokens is the index of the event at which the running sum of
// Tokens first reaches n, Len() when it never does. Counts are not negative
// (a stream's never are), so the sum only grows: a bisection of the marks'
// sums, then a walk of at most 32 events; an n beyond every token costs
// nothing.
func (e Events) SearchTokens(n int) int {
	if e.Len() == 0 || e.log.tokens < n {
		return e.Len()
	}
	l := e.log
	// The first mark whose tokens before it reach n: the event is in the
	// block before it.
	b := sort.Search(len(l.marks), func(b int) bool { return l.marks[b].tokens >= n })
	if b == 0 {
		return 0
	}
	tokens := l.marks[b-1].tokens
	for k, ev := range e.From((b - 1) * markEvery) {
		if tokens += ev.Tokens; tokens >= n {
			return k
		}
	}
	return l.n
}

// Search is the number of events at or before t: the index of the first
// event after t, Len() when there is none. Events are in time order as a
// stream records them (a hand-made record whose times go back gets one
// such boundary, as sort.Search would). A t no earlier than the last event
// costs nothing; another decodes the first event of about log₂(Len()/32)
// marks and at most 32 events after the last.
func (e Events) Search(t time.Duration) int {
	if e.Len() == 0 {
		return 0
	}
	l := e.log
	if t >= l.last { // the newest event is no later than t: a live stream's now
		return l.n
	}
	// The first mark whose first event is after t; the answer lies in the
	// block before it.
	b := sort.Search(len(l.marks), func(b int) bool {
		m := l.marks[b]
		d, _ := binary.Varint(l.blocks[m.at.block][m.at.off:])
		return m.before+time.Duration(d) > t
	})
	if b == 0 {
		return 0
	}
	end := min(b*markEvery, l.n)
	for k, ev := range e.From((b - 1) * markEvery) {
		if k == end || ev.At > t {
			return k
		}
	}
	return end
}

// Values yields every event, in order.
func (e Events) Values() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		for _, ev := range e.All() {
			if !yield(ev) {
				return
			}
		}
	}
}

// decode reads the event at p, whose predecessor's At is before, into ev,
// and returns the place of the next: the next block when it ends its block
// (the next event did not fit in it, or there is none yet). It writes the
// caller's Event: an Event returned by value went through the stack at
// every event (BenchmarkCompute).
func (l *eventLog) decode(p place, before time.Duration, ev *Event) place {
	b, off := l.blocks[p.block], int(p.off)
	d, k := binary.Varint(b[off:])
	off += k
	ev.At, ev.Reasoning, ev.Tokens = before+time.Duration(d), "", 1
	head, k := binary.Uvarint(b[off:])
	off += k
	ev.Content, off = blockText(b, off, int(head>>2))
	if head&hasReasoning != 0 {
		n, k := binary.Uvarint(b[off:])
		ev.Reasoning, off = blockText(b, off+k, int(n))
	}
	if head&oneToken == 0 {
		tok, k := binary.Varint(b[off:])
		ev.Tokens, off = int(tok), off+k
	}
	if off == len(b) {
		return place{p.block + 1, 0}
	}
	return place{p.block, int32(off)}
}

// blockText is the n bytes of b at off, as a view, and the offset after them.
func blockText(b []byte, off, n int) (string, int) {
	if n == 0 {
		return "", off
	}
	return unsafe.String(&b[off], n), off + n
}
