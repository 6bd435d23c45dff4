package benchdoc

import (
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
)

const msec = time.Millisecond

// stream is a completed stream of n one-token events, gap apart, from ttft.
func stream(ttft, gap time.Duration, n int) probes.Result {
	r := probes.Result{Usage: &probes.Usage{PromptTokens: 10, CompletionTokens: n, TotalTokens: 10 + n}, FinishReason: "stop"}
	for i := range n {
		r.Events.Append(probes.Event{At: ttft + time.Duration(i)*gap, Content: " the", Tokens: 1})
	}
	last, _ := r.Events.Last()
	r.End = last.At
	return r
}

func TestBuildSummariesAndRanking(t *testing.T) {
	cfg := &config.Config{Prompt: "p", MaxTokens: 100, Providers: []config.Provider{
		{Name: "slow|pipe", Model: "a"}, {Name: "fast", Model: "b", Price: &config.Price{InputPerMTok: 1, OutputPerMTok: 2}}, {Name: "down", Model: "c"}}}
	failed := probes.Result{Err: &probes.Failure{Kind: probes.KindHTTP, Status: 503, Message: "busy"}, End: 5 * msec}
	priced := func(r probes.Result) probes.Result { r.Price = cfg.Providers[1].Price; return r }
	races := [][][]probes.Result{
		{{stream(100*msec, 20*msec, 11)}, {priced(stream(50*msec, 5*msec, 11))}, {failed}},
		{{stream(120*msec, 20*msec, 11)}, {priced(stream(70*msec, 5*msec, 11))}, {failed}},
	}
	b := Build(Input{Config: cfg, Concurrency: 1, Races: races})
	ranked := b.Ranked()
	if ranked[0].Name != "fast" || ranked[1].Name != "slow|pipe" || ranked[2].Name != "down" {
		t.Fatalf("ranking %s, %s, %s: want fastest first, the failed last", ranked[0].Name, ranked[1].Name, ranked[2].Name)
	}
	fast := b.Providers[1].Summary
	if fast.OK != 2 || *fast.OutputTPS.P50 != 200 || *fast.TTFTms.P50 != 60 {
		t.Errorf("fast summary: ok %d, tok/s p50 %v, TTFT p50 %v; want 2, 200 (10 tokens / 50 msec), 60 ms", fast.OK, *fast.OutputTPS.P50, *fast.TTFTms.P50)
	}
	if want := (10*1 + 11*2) / 1e6; *fast.CostUSD != want {
		t.Errorf("cost %v, want %v", *fast.CostUSD, want)
	}
	down := b.Providers[2]
	if down.Summary.Failed != 2 || down.Summary.OutputTPS.P50 != nil || down.Summary.CostUSD != nil || down.Streams[0].TTFTms != nil {
		t.Errorf("failed provider: %+v; want undefined figures as nil", down.Summary)
	}
	if *down.Streams[0].Error != "503 busy" || *down.Streams[0].ErrorKind != probes.KindHTTP {
		t.Errorf("error %q kind %q", *down.Streams[0].Error, *down.Streams[0].ErrorKind)
	}
}
