package benchdoc_test

import (
	"strings"
	"testing"

	"tpsrace/benchdoc"
)

// --finish-at ranks by the time to N tokens: a quick starter beats a fast
// streamer over a short distance (speeds 2.5× apart or more, and the short
// answer streams for 20ms rather than 7, so the order by speed holds on a busy
// machine under the race detector), and an answer shorter than N is marked
// and ranked after every stream that got there, however fast it was.
func TestFinishAtRanksByTimeToNTokens(t *testing.T) {
	names := []string{"early", "late", "short"}
	models := func(int) []string {
		return []string{"sim:ttft=20ms,tps=200,tokens=60", "sim:ttft=400ms,tps=600,tokens=60", "sim:ttft=10ms,tps=1500,tokens=30"}
	}
	order := func(b *benchdoc.Bench) string {
		var got []string
		for _, p := range b.Ranked() {
			got = append(got, p.Name)
		}
		return strings.Join(got, ",")
	}
	if got := order(raceRuns(t, 1, names, models, 0)); got != "short,late,early" {
		t.Errorf("by output speed: %s, want short,late,early", got)
	}
	b := raceRuns(t, 1, names, models, 40)
	if got := order(b); got != "early,late,short" {
		t.Errorf("by time to 40 tokens: %s, want early,late,short", got)
	}
	for _, p := range b.Providers {
		r := p.Streams[0]
		if short := p.Name == "short"; r.StoppedShort != short || (r.TimeToNms == nil) != short {
			t.Errorf("%s: stopped short %v, time to N %v", p.Name, r.StoppedShort, r.TimeToNms)
		}
	}
	if b.FinishAt == nil || *b.FinishAt != 40 || b.Verdict.Metric != "time_to_n_tokens" || !strings.HasPrefix(b.Verdict.Text, "early is ") ||
		!strings.Contains(b.Verdict.Text, " faster than late to 40 tokens (") {
		t.Errorf("finish_at %v, verdict %+v", b.FinishAt, b.Verdict)
	}
	if s := b.Providers[2].Summary; !s.StoppedShort || s.EventTokens != 30 || s.TimeToNms.P50 != nil {
		t.Errorf("short's summary %+v: want stopped short at 30 tokens", s)
	}
}
