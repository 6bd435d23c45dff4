package workload

import (
	"strings"
	"testing"
	"time"

	"tpsrace/tokens"
)

func TestPadIsExact(t *testing.T) {
	for _, n := range []int{60, 1000, 8000, 32000} {
		text := Pad("What is the capital of France?", n, Nonce(time.Unix(0, 1764850000123456789)))
		if got := tokens.Count(text); got != n {
			t.Errorf("Pad(%d) has %d o200k tokens", n, got)
		}
		if !strings.HasPrefix(text, "[race 187") || !strings.HasSuffix(text, "Question: What is the capital of France?") {
			t.Errorf("Pad(%d) = %.40q…%q", n, text, text[len(text)-40:])
		}
	}
	a, b := Pad("q", 500, "a"), Pad("q", 500, "b")
	if a[3:] != b[3:] || a == b {
		t.Error("two nonces should differ in their first words only")
	}
}
