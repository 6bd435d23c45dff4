package probes_test

import (
	"context"
	"sync/atomic"
	"testing"

	"tpsrace/config"
	"tpsrace/probes"
)

// With Race.Tokens, a race counts every text event's tokens there and
// sends no record of them: what bench's progress line reads.
func TestRaceCountsTokensWithoutSendingEvents(t *testing.T) {
	url := startSim(t)
	var counted atomic.Int64
	race := probes.Race{Providers: []config.Provider{{Name: "sim", Model: "sim:ttft=0ms,tps=5000,tokens=300,chunk=2", BaseURL: url}},
		Request: probes.Request{Prompt: "hi", MaxTokens: 300}, Concurrency: 3, Tokens: &counted}
	updates := make(chan probes.Update, 64)
	var events, ends int
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for u := range updates {
			if u.Shared != nil || u.Events.Len() > 0 {
				events++
			}
			if u.Done != nil {
				ends++
			}
		}
	}()
	results := race.Run(context.Background(), updates)
	close(updates)
	<-drained
	want := 0
	for _, r := range results[0] {
		if !r.OK() {
			t.Fatalf("stream failed: %v", r.Err)
		}
		want += r.Events.TokensBefore(r.Events.Len())
	}
	if got := counted.Load(); got != int64(want) || want == 0 {
		t.Errorf("counted %d tokens, the streams' events hold %d", got, want)
	}
	if events != 0 || ends != 3 {
		t.Errorf("%d records and %d ends sent, want 0 and 3", events, ends)
	}
}
