package recording_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/recording"
)

// A session of one race, one provider, one stream, written and read back:
// the API key never reaches the file, and the events come back as recorded.
func Example() {
	dir, _ := os.MkdirTemp("", "recording")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "race"+recording.Extension)

	cfg := &config.Config{Prompt: "Say something.", MaxTokens: 3, Providers: []config.Provider{
		{Name: "alpha", Kind: config.KindOpenAI, Model: "m", BaseURL: "http://127.0.0.1:8080/v1", APIKey: config.Secret("sk-never-written")}}}
	var stream probes.Result
	for i, word := range []string{"one", " two", " three"} {
		stream.Events.Append(probes.Event{At: time.Duration(100+10*i) * time.Millisecond, Content: word, Tokens: 1})
	}
	stream.Provider, stream.Model, stream.End, stream.FinishReason = "alpha", "m", 130*time.Millisecond, "stop"

	w, err := recording.Create(path, recording.NewHeader(cfg, 1, time.Time{}), cfg)
	if err != nil {
		panic(err)
	}
	w.Race([][]probes.Result{{stream}}) // after each race
	if err := w.Close(false); err != nil {
		panic(err)
	}

	rec, err := recording.Open(path)
	if err != nil {
		panic(err)
	}
	raw, _ := os.ReadFile(path)
	fmt.Println("races:", len(rec.Races), "broken:", rec.Broken != nil, "key in the file:", strings.Contains(string(raw), "sk-never-written"))
	for ev := range rec.Races[0].Results[0][0].Events.Values() {
		fmt.Printf("%v %q\n", ev.At, ev.Content)
	}
	// Output:
	// races: 1 broken: false key in the file: false
	// 100ms "one"
	// 110ms " two"
	// 120ms " three"
}
