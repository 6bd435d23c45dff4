package probes

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
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
		decoded := 0
		for k, e := range got.Decoded() {
			if k != decoded || *e != want[k] {
				t.Fatalf("n=%d: Decoded yields %d %+v after %d events, want %+v", n, k, *e, decoded, want[k])
			}
			decoded++
		}
		if decoded != n {
			t.Fatalf("n=%d: Decoded yields %d events", n, decoded)
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

// From, TokensBefore, SearchTokens and Search answer as a walk over every event would,
// at every index (marks and the events between them) and time.
func TestEventsFromTokensAndSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 31, 32, 33, 64, 65, 1000} {
		want := randomEvents(rng, n)
		got := EventsOf(want...)
		tokens := 0
		for i := 0; i <= n; i++ {
			if b := got.TokensBefore(i); b != tokens {
				t.Fatalf("n=%d: TokensBefore(%d) = %d, want %d", n, i, b, tokens)
			}
			var from []Event
			for k, e := range got.From(i) {
				if k != i+len(from) {
					t.Fatalf("n=%d: From(%d) yields index %d after %d events", n, i, k, len(from))
				}
				from = append(from, e)
			}
			if !slices.Equal(from, want[i:]) {
				t.Fatalf("n=%d: From(%d) differs from the events after %d", n, i, i)
			}
			if i < n {
				tokens += want[i].Tokens
			}
		}
		// SearchTokens: the first event at which a walk's count reaches k.
		ks := []int{tokens, tokens + 1}
		for k := -1; k < tokens; k += 1 + k/64 { // every count at first, then sparser
			ks = append(ks, k)
		}
		for _, k := range ks {
			wantI, sum := n, 0
			for i, e := range want {
				if sum += e.Tokens; sum >= k {
					wantI = i
					break
				}
			}
			if i := got.SearchTokens(k); i != wantI {
				t.Fatalf("n=%d: SearchTokens(%d) = %d, want %d", n, k, i, wantI)
			}
		}

		// Search needs times in order, as a stream records them; some
		// events share an instant.
		sorted := slices.Clone(want)
		slices.SortStableFunc(sorted, func(a, b Event) int { return int(a.At - b.At) })
		for i := range sorted {
			if i%5 == 1 {
				sorted[i].At = sorted[i-1].At
			}
		}
		rec := EventsOf(sorted...)
		probe := []time.Duration{-1, 0, 1 << 62}
		for _, e := range sorted {
			probe = append(probe, e.At-1, e.At, e.At+1)
		}
		for _, at := range probe {
			wantK, _ := slices.BinarySearchFunc(sorted, at, func(e Event, t time.Duration) int {
				if e.At > t {
					return 1
				}
				return -1
			})
			if k := rec.Search(at); k != wantK {
				t.Fatalf("n=%d: Search(%v) = %d, want %d", n, at, k, wantK)
			}
		}
	}
}

// A record grows without copying itself: a block, once made, stays where
// it is, and the record keeps at most one block's room beyond its bytes.
// Grown as one buffer, a stream's record of 2,000 events allocated about
// five times its size, every copy but the last garbage before the stream
// ended.
func TestEventsGrowWithoutCopying(t *testing.T) {
	var rec Events
	var blocks []*byte // where each block was made
	for i := range 2000 {
		rec.Append(Event{At: time.Duration(i+1) * time.Millisecond, Content: " the", Tokens: 1})
		for k, b := range rec.log.blocks {
			if k == len(blocks) {
				blocks = append(blocks, unsafe.SliceData(b))
			}
			if unsafe.SliceData(b) != blocks[k] {
				t.Fatalf("event %d moved block %d", i, k)
			}
		}
	}
	used, kept := 0, 0
	for _, b := range rec.log.blocks {
		used, kept = used+len(b), kept+cap(b)
	}
	if room := kept - used; room > 4<<10+used/8 { // the last block at most, and the ends of the others
		t.Errorf("a record of %d bytes keeps %d bytes: %d unused", used, kept, room)
	}
}
