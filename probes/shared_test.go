package probes

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A view taken while the probe appends is the record as it stood: its
// events exactly, its sums and searches as a record of those events
// answers them, untouched by what is appended after it; and appending to a
// view writes nothing of the record's. Run under -race: the writer and the
// reader share the record's bytes.
func TestSharedEventsViewsWhileAppending(t *testing.T) {
	want := randomEvents(rand.New(rand.NewPCG(3, 4)), 3000)
	sh := NewSharedEvents()
	done, half, mid := make(chan struct{}), make(chan struct{}), make(chan Events)
	go func() {
		defer close(done)
		for i, e := range want {
			if i == len(want)/2 { // one view surely taken halfway, the rest as they come
				half <- struct{}{}
				<-mid
			}
			sh.Append(e)
		}
	}()
	var views []Events
	for seen, finished := 0, false; !finished; {
		select {
		case <-done:
			finished = true
		case <-half:
			v, _ := sh.ViewAfter(0)
			seen, views = v.Len(), append(views, v)
			mid <- v
		default:
		}
		if v, ok := sh.ViewAfter(seen); ok {
			seen, views = v.Len(), append(views, v)
			if last, _ := v.Last(); last != want[seen-1] { // read while the writer goes on
				t.Fatalf("view of %d events: last %+v, want %+v", seen, last, want[seen-1])
			}
		}
	}
	if got := views[len(views)-1].Len(); got != len(want) {
		t.Fatalf("the last view has %d events, want %d", got, len(want))
	}
	for k := 0; k < len(views); k += max(len(views)/40, 1) { // 40 views or so: each is checked whole
		v := views[k]
		n := v.Len()
		ref := EventsOf(want[:n]...)
		last, _ := v.Last()
		switch {
		case !slices.Equal(slices.Collect(v.Values()), want[:n]):
			t.Fatalf("view of %d events: they differ from what went in", n)
		case last != want[n-1] || v.TokensBefore(n) != ref.TokensBefore(n) || v.TokensBefore(n/2) != ref.TokensBefore(n/2):
			t.Fatalf("view of %d events: last %+v, tokens %d, want %+v, %d", n, last, v.TokensBefore(n), want[n-1], ref.TokensBefore(n))
		case v.Search(want[n/2].At) != ref.Search(want[n/2].At):
			t.Fatalf("view of %d events: Search %d, want %d", n, v.Search(want[n/2].At), ref.Search(want[n/2].At))
		case !v.SameRecord(sh.events) || !sh.events.SameRecord(v) || v.SameRecord(ref):
			t.Fatalf("view of %d events: SameRecord wrong", n)
		}
	}
	v := views[slices.IndexFunc(views, func(v Events) bool { return v.Len() == len(want)/2 })]
	v.Append(Event{Content: "not the record's", Tokens: 1})
	if got := slices.Collect(sh.events.Values()); !slices.Equal(got, want) {
		t.Fatalf("appending to a view changed the record")
	}
	if _, ok := sh.ViewAfter(len(want)); ok {
		t.Errorf("a view after every event was given")
	}
}
