package probes_test

import (
	"context"
	"strings"
	"testing"

	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/testenv"
)

// Every wire shape the simulator can send (the dialects of the recorded
// streams, every framing) must give the same figures: 40 answer tokens, 12
// reasoning.
func TestEveryShapeParsesTheSame(t *testing.T) {
	url := startSim(t)
	const base = "sim:ttft=5ms,tps=2000,tokens=40"
	for _, shape := range []string{
		"usage=final", "usage=finish", "usage=xgroq", "usage=cumulative",
		"nospace=1", "done=0", "role=0", "chunk=3", "keepalive=1ms", "timings=1",
		"reasoning=12", "reasoning=12,rfield=reasoning", "reasoning=12,rfield=think",
		"reasoning=12,excl_reasoning=1", "reasoning=12,usage=xgroq,chunk=5,nospace=1,done=0",
		// Every framing the event-stream rules allow.
		"framing=crlf", "framing=cr+bom", "framing=split+fields", "framing=noend",
		"framing=cr+split+fields+noend,done=0,nospace=1,keepalive=1ms", "framing=crlf+bom+split,reasoning=12,usage=xgroq",
		// Compressed by a proxy, though asked for none.
		"gzip=1", "gzip=1,framing=cr+split+fields+noend,reasoning=12",
	} {
		t.Run(shape, func(t *testing.T) {
			p := config.Provider{Name: "sim", Model: base + "," + shape, BaseURL: url}
			reasoning := 0
			if strings.Contains(shape, "reasoning=12") {
				reasoning = 12
			}
			// Timed for the one timing here: the thinking phase is 6 ms at
			// 2000 tok/s, and a client held off a core that long reads it
			// with the first answer token and stamps both at once.
			testenv.Timed(t, func(a *testenv.Attempt) {
				res := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: "hi", MaxTokens: 1000}}.Run(context.Background(), nil)[0][0]
				if res.Err != nil {
					t.Fatal(res.Err)
				}
				a.Load = metrics.Saturation(res.Load)
				f := metrics.Compute(&res, 0)
				if f.TokenSource != metrics.SourceUsage || f.OutputTokens != 40+reasoning {
					t.Errorf("output tokens %d (%s), want %d from usage", f.OutputTokens, f.TokenSource, 40+reasoning)
				}
				if f.O200kTokens != 40+reasoning {
					t.Errorf("o200k tokens %d, want %d", f.O200kTokens, 40+reasoning)
				}
				if (f.ReasoningChars > 0) != (reasoning > 0) || f.ContentChars == 0 {
					t.Errorf("content %d chars, reasoning %d chars", f.ContentChars, f.ReasoningChars)
				}
				if f.TTFA < f.TTFT || reasoning == 0 && f.TTFA != f.TTFT {
					t.Errorf("TTFA %v, TTFT %v", f.TTFA, f.TTFT)
				}
				if reasoning > 0 && f.TTFA == f.TTFT {
					a.Missf("TTFA %v should follow TTFT %v by the thinking phase", f.TTFA, f.TTFT)
				}
				if res.FinishReason != "stop" {
					t.Errorf("finish_reason %q", res.FinishReason)
				}
				if strings.Contains(shape, "timings") && !f.HasServerTPS {
					t.Error("timings=1: no server tok/s")
				}
			})
		})
	}
}
