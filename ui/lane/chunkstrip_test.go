package lane

import (
	"testing"

	"tpsrace/probes"
)

func TestChunkStrip(t *testing.T) {
	var events probes.Events
	for _, n := range []int{0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 33, 64, 65, 500} {
		events.Append(probes.Event{Tokens: n})
	}
	if got, want := ChunkStrip(events, 100), "▁▁▂▃▃▄▄▅▅▆▇▇██"; got != want {
		t.Errorf("strip %q, want %q", got, want)
	}
	if got, want := ChunkStrip(events, 3), "▇██"; got != want {
		t.Errorf("the last 3 events: %q, want %q", got, want)
	}
	if ChunkStrip(events, 0) != "" || ChunkStrip(probes.Events{}, 5) != "" {
		t.Error("no room or no events: want an empty strip")
	}
}
