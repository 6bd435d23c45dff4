package recording_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/recording"
)

// A llama.cpp lane's roofline inputs travel in the recording, so that its
// replay reports the roofline of the live race: decode 38 tok/s on a box
// that streams 4 GB a token at 212 GB/s is 72% of 53 tok/s.
func TestRooflineIsRecordedAndReplayed(t *testing.T) {
	box := &config.Box{MemoryBandwidth: 212e9, CacheBytes: 32 << 20, DecodeBytes: 4e9}
	cfg := &config.Config{Prompt: "Say something.", MaxTokens: 3, Providers: []config.Provider{
		{Name: "laptop", Kind: config.KindLlamaCpp, Model: "qwen", BaseURL: "http://127.0.0.1:8080/v1", Box: box}}}
	var stream probes.Result
	for i := range 3 {
		stream.Events.Append(probes.Event{At: time.Duration(100+26*i) * time.Millisecond, Content: "word ", Tokens: 1})
	}
	stream.Provider, stream.Model, stream.End, stream.FinishReason = "laptop", "qwen", 160*time.Millisecond, "stop"
	stream.Timings = &probes.ServerTimings{PredictedN: 3, PredictedPerSecond: 38, PromptN: 40, PromptPerSecond: 500}

	path := filepath.Join(t.TempDir(), "race"+recording.Extension)
	w, err := recording.Create(path, recording.NewHeader(cfg, 1, time.Time{}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.Race([][]probes.Result{{stream}})
	if err := w.Close(false); err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	in := rec.Report()
	if got := in.Config.Providers[0].Box; got == nil || *got != *box {
		t.Fatalf("replayed box = %+v, want %+v", got, box)
	}
	live := benchdoc.Build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: [][][]probes.Result{{{stream}}}}).Providers[0].Summary
	replayed := benchdoc.Build(in).Providers[0].Summary
	r := replayed.MemoryRoofline
	raw, _ := json.Marshal(r)
	if r == nil || r.InCache || r.Box != *box || !strings.Contains(string(raw), `"limit_tps":53,"share":0.717,`) {
		t.Errorf("replayed memory_roofline = %s, want 71.7%% of 53 tok/s with the box", raw)
	}
	if live.MemoryRoofline.Share != r.Share || *replayed.ServerPromptTPS != 500 || *replayed.ServerTPS != 38 {
		t.Errorf("live %+v and replay %+v differ, or prefill/decode are not 500/38", live, replayed)
	}
}
