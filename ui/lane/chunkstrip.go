package lane

import (
	"math/bits"
	"strings"

	"tpsrace/probes"
)

// chunkLevels are the strip's cells by tokens per event on a log₂ scale,
// the same for every lane: 1, 2, 3–4, 5–8, 9–16, 17–32, 33–64, more.
var chunkLevels = []rune("▁▂▃▄▅▆▇█")

// ChunkStrip is the chunk strip of a lane: one cell per text event, the
// last width events, its height the tokens the event carried (Event.Tokens,
// o200k). One token per event reads as a flat "▁▁▁▁"; a server that batches
// tokens, or speculative decoding's bursts, read as tall cells.
func ChunkStrip(events probes.Events, width int) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	for _, e := range events.From(max(events.Len()-width, 0)) {
		level := 0
		if e.Tokens > 1 {
			level = bits.Len(uint(e.Tokens - 1)) // 2→1, 3–4→2, 5–8→3, …
		}
		b.WriteRune(chunkLevels[min(level, len(chunkLevels)-1)])
	}
	return b.String()
}
