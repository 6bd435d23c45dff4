package probes

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// randomEvents has the shapes a record must keep exactly: empty and long
// texts (a >1 MiB event), reasoning beside an answer, times that go back
// (a hand-made Result may) or jump by hours, counts beyond a byte.
func randomEvents(rng *rand.Rand, n int) []Event {
	words := []string{"", " the", "é", " 世界", "\n", strings.Repeat("x", 300), "\x00"}
	events := make([]Event, n)
	at := time.Duration(0)
	for i := range events {
		switch rng.IntN(10) {
		case 0:
			at -= time.Duration(rng.IntN(1000))
		case 1:
			at += time.Duration(rng.Int64N(int64(5 * time.Hour)))
		default:
			at += time.Duration(rng.IntN(100_000_000))
		}
		e := Event{At: at, Content: words[rng.IntN(len(words))], Reasoning: words[rng.IntN(len(words))], Tokens: rng.IntN(5)}
		if rng.IntN(500) == 0 {
			e.Content, e.Tokens = strings.Repeat("long ", 1<<18), 1<<18
		}
		events[i] = e
	}
	return events
}

func TestEventsKeepEveryEventExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 31, 32, 33, 64, 1000} {
		want := randomEvents(rng, n)
		got := EventsOf(want...)
		if got.Len() != n {
			t.Fatalf("n=%d: Len %d", n, got.Len())
		}
		if all := slices.Collect(got.Values()); !slices.Equal(all, want) && n > 0 {
			t.Fatalf("n=%d: Values differ from what went in", n)
		}
		for i, w := range want {
			if e := got.Event(i); e != w {
				t.Fatalf("n=%d: Event(%d) = %+v, want %+v", n, i, e, w)
			}
		}
		first, okFirst := got.First()
		last, okLast := got.Last()
		if okFirst != (n > 0) || okLast != (n > 0) || n > 0 && (first != want[0] || last != want[n-1]) {
			t.Fatalf("n=%d: First/Last wrong", n)
		}
	}
}

// Texts handed out are views of the record's buffer: appending more, through
// the record or a copy of it, must never change one.
func TestEventsTextsNeverChange(t *testing.T) {
	var rec Events
	var seen []Event
	for i := range 3000 {
		e := Event{At: time.Duration(i) * time.Millisecond, Content: strings.Repeat(string(rune('a'+i%26)), 1+i%7), Tokens: 1}
		cp := rec // a copy shares the record
		cp.Append(e)
		rec = cp
		seen = append(seen, rec.Event(i))
	}
	for i, e := range seen {
		if want := strings.Repeat(string(rune('a'+i%26)), 1+i%7); e.Content != want || rec.Event(i) != e {
			t.Fatalf("event %d's text changed to %q, want %q", i, e.Content, want)
		}
	}
}
