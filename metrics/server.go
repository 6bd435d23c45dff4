package metrics

// ServerCountedTPS is a llama-server's own generation speed over the
// requests it has finished, from its /metrics counters: tokens generated ÷
// seconds spent generating. The seconds are summed over slots, so this is
// per slot, like a stream's output speed, not the server's aggregate. ok is
// false until some generation time was counted.
func ServerCountedTPS(tokens, seconds float64) (tps float64, ok bool) {
	if seconds <= 0 {
		return 0, false
	}
	return tokens / seconds, true
}
