package live

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

// A large race, as the dashboard holds it: C=64 streams of one provider,
// 2000 one-token events each at 1750 tok/s per user (what
// scripts/dashboard-cpu.sh measures), each event's text its own string as
// the parser hands it over.
const (
	benchStreams = 64
	benchEvents  = 2000
	benchGap     = time.Second / 1750
)

func benchStream(s int) []probes.Event {
	words := []string{" the", " cache", " keeps", " data", " close", " to", " a", " core"}
	events := make([]probes.Event, benchEvents)
	for i := range events {
		events[i] = probes.Event{At: 100*time.Millisecond + time.Duration(s)*time.Millisecond + time.Duration(i)*benchGap,
			Content: strings.Clone(words[i%len(words)]), Tokens: 1}
	}
	return events
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// BenchmarkProviderMemory is the heap a provider's lane holds per stream
// (in use after a collection, against the heap before the race):
// mb/stream-running once every event has been recorded (the probe's own
// record of the stream is not counted), mb/stream-settled once every
// Result, which the lane keeps, has arrived too. Each event is made as the
// parser makes it, its text its own string, and dropped once recorded.
func BenchmarkProviderMemory(b *testing.B) {
	var running, settled uint64
	for range b.N {
		base := heapInUse()
		p := NewLane(0, config.Provider{Name: "vllm", Model: "sim:x"}, benchStreams, 10)
		for s := range benchStreams {
			var rec probes.Events
			for _, e := range benchStream(s) {
				rec.Append(e)
				p.Record(probes.Update{Stream: s, Events: rec})
			}
		}
		running += heapInUse() - base
		for s := range benchStreams {
			events := benchStream(s)
			p.Record(probes.Update{Stream: s, Done: &probes.Result{Events: probes.EventsOf(events...), End: events[len(events)-1].At + time.Millisecond}})
		}
		settled += heapInUse() - base
		runtime.KeepAlive(p)
	}
	perStream := float64(b.N) * benchStreams * 1e6
	b.ReportMetric(float64(running)/perStream, "mb/stream-running")
	b.ReportMetric(float64(settled)/perStream, "mb/stream-settled")
}

// BenchmarkProviderFrame is what one frame asks of that provider mid-race
// (every stream half way): its figures, the sparkline's series and the
// token chart's, as ui's refresh does.
func BenchmarkProviderFrame(b *testing.B) {
	p := halfWay()
	now := 100*time.Millisecond + benchStreams*time.Millisecond + benchEvents/2*benchGap // after every stream's newest event
	p.Series(now)
	p.TokenSeries(now)
	b.ResetTimer()
	for range b.N {
		p.Snapshot(now)
		p.Series(now)
		p.TokenSeries(now)
	}
}

// BenchmarkProviderRaceTo is what --finish-at adds to that frame: the race
// to n tokens, at an n every stream has passed and at one none has reached.
func BenchmarkProviderRaceTo(b *testing.B) {
	p := halfWay()
	for _, n := range []int{benchEvents / 4, benchEvents} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var f Snapshot
			for range b.N {
				p.RaceTo(&f, n)
			}
		})
	}
}

// halfWay is the provider of the large race with every stream half way.
func halfWay() *Lane {
	p := NewLane(0, config.Provider{Name: "vllm", Model: "sim:x"}, benchStreams, 10)
	for s := range benchStreams {
		events := benchStream(s)
		var rec probes.Events
		for i := range events[:benchEvents/2] {
			rec.Append(events[i])
			p.Record(probes.Update{Stream: s, Events: rec})
		}
	}
	return p
}
