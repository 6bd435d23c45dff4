package metrics

import (
	"testing"
	"time"

	"tpsrace/probes"
)

// The time to n tokens is the event at which a walk's running count first
// reaches n, for every n up to past the end; events of no tokens (a
// reasoning delta the tokenizer merged) and bursts included.
func TestTimeToTokensIsTheWalk(t *testing.T) {
	var events []probes.Event
	for i := range 1000 {
		events = append(events, ev(time.Duration(i)*ms, "x", i*7%5))
	}
	rec := probes.EventsOf(events...)
	for n := -1; n <= rec.TokensBefore(rec.Len())+1; n++ {
		wantAt, wantOK, tok := time.Duration(0), false, 0
		for _, e := range events {
			if tok += e.Tokens; tok >= n {
				wantAt, wantOK = e.At, true
				break
			}
		}
		if at, ok := TimeToTokens(rec, n); at != wantAt || ok != wantOK {
			t.Fatalf("TimeToTokens(%d) = %v, %v; want %v, %v", n, at, ok, wantAt, wantOK)
		}
	}
	if _, ok := TimeToTokens(probes.Events{}, 0); ok {
		t.Error("no events: want short of any n")
	}
}
