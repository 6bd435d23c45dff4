package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/workload"
)

// Goldens of a multi-turn race: two conversations of three turns, the
// prompt growing turn by turn; one provider reports no usage, so its turns
// have no input tokens (-), and its second conversation's last turn failed,
// so that conversation has no time.
func TestGoldenTurns(t *testing.T) {
	w, _ := workload.Named(workload.MultiTurn)
	cfg := &config.Config{Prompt: "Explain caches.", MaxTokens: 20, Workload: w, Providers: []config.Provider{
		{Name: "slow", Model: "m1"}, {Name: "fast", Model: "m2"}}}
	turn := func(ttft time.Duration, prompt int) probes.Result {
		r := stream(ttft, 2*msec, 20)
		r.Usage.PromptTokens = prompt
		return r
	}
	noUsage := func(ttft time.Duration) probes.Result {
		r := stream(ttft, 10*msec, 20)
		r.Usage = nil
		return r
	}
	failed := probes.Result{Err: &probes.Failure{Kind: probes.KindHTTP, Status: 503, Message: "busy"}, End: 5 * msec}
	var races [][][]probes.Result
	for conversation := range 2 {
		extra := time.Duration(conversation) * 4 * msec
		for k := range 3 {
			slow := noUsage(300*msec + extra)
			if conversation == 1 && k == 2 {
				slow = failed
			}
			races = append(races, [][]probes.Result{{slow}, {turn(50*msec+extra+time.Duration(k)*10*msec, 10+30*k)}})
		}
	}
	b := build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: races, StartedAt: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
	for _, format := range []string{"table", "markdown"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := b.Write(&out, format); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, out.Bytes())
		})
	}
}
