package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
)

// raceWithFailures is two races of three providers at C=2: one priced, one
// slower, one whose every stream is refused with 401.
func raceWithFailures() *Bench {
	price := &config.Price{InputPerMTok: 0.59, OutputPerMTok: 0.79}
	cfg := &config.Config{Prompt: "Explain how a CPU cache works in three paragraphs.", MaxTokens: 1200, Providers: []config.Provider{
		{Name: "slow", Model: "llama3.2", BaseURL: "http://127.0.0.1:11434/v1"},
		{Name: "groq", Model: "llama-3.3-70b-versatile", BaseURL: "https://api.groq.com/openai/v1", Price: price},
		{Name: "down", Model: "gpt-4o", BaseURL: "https://api.openai.com/v1"}}}
	refused := probes.Result{End: 41 * msec, Err: &probes.Failure{Kind: probes.KindHTTP, Status: 401, Code: "invalid_api_key",
		Message: "Incorrect API key provided", Hint: "check OPENAI_API_KEY"}}
	priced := func(r probes.Result) probes.Result { r.Price = price; return r }
	second := func(r probes.Result) probes.Result { r.Stream = 1; return r }
	var races [][][]probes.Result
	for run := range 2 {
		jitter := time.Duration(run) * 7 * msec
		races = append(races, [][]probes.Result{
			{stream(600*msec+jitter, 40*msec, 30), second(stream(650*msec, 41*msec, 30))},
			{priced(stream(150*msec+jitter, 1*msec, 1201)), second(priced(stream(180*msec, 1*msec, 1201)))},
			{refused, second(refused)},
		})
	}
	return build(benchdoc.Input{Config: cfg, Concurrency: 2, Races: races, StartedAt: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
}

// Goldens of a race with failures (go test ./report -update rewrites them).
func TestGoldenReports(t *testing.T) {
	for _, format := range []string{"csv", "markdown", "table", "json"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := raceWithFailures().Write(&out, format); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, out.Bytes())
		})
	}
}
