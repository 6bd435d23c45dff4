package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
)

// silent is a stream that thought `hidden` tokens unseen for `think`, then
// streamed 50 answer tokens 10ms apart: usage counts both.
func silent(think time.Duration, hidden int) probes.Result {
	r := stream(think, 10*msec, 50)
	r.Usage = &probes.Usage{PromptTokens: 10, CompletionTokens: 50 + hidden, ReasoningTokens: hidden, TotalTokens: 60 + hidden}
	return r
}

// A race of two models that think silently: every view shows the phases,
// the speeds leave the hidden tokens out, and the verdict is on time to answer.
func TestReasoningRaceViews(t *testing.T) {
	cfg := &config.Config{Prompt: "p", MaxTokens: 500, Providers: []config.Provider{{Name: "ponder", Model: "m"}, {Name: "quick", Model: "n"}}}
	races := [][][]probes.Result{{{silent(2*time.Second, 200)}, {silent(time.Second, 100)}}}
	b := build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: races})
	if b.Verdict.Metric != "ttfa" || !strings.Contains(b.Verdict.Text, "quick is 2.0× faster than ponder to the answer") {
		t.Errorf("verdict %s: %q, want quick first on time to answer", b.Verdict.Metric, b.Verdict.Text)
	}
	quick := b.Ranked()[0]
	if s := quick.Summary; s.HiddenReasoningTokens != 100 || s.Reasoned != 1 || *s.OutputTPS.P50 != 100 || *s.AnswerTPS.P50 != 100 || *s.ThinkingTPS.P50 != 100 {
		t.Errorf("quick's summary: hidden %d, reasoned %d, output %v, answer %v, thinking %v tok/s; want 100, 1, 100, 100, 100",
			s.HiddenReasoningTokens, s.Reasoned, *s.OutputTPS.P50, *s.AnswerTPS.P50, *s.ThinkingTPS.P50)
	}
	var table, md, out bytes.Buffer
	for format, w := range map[string]*bytes.Buffer{"table": &table, "markdown": &md, "csv": &out} {
		if err := b.Write(w, format); err != nil {
			t.Fatal(err)
		}
	}
	for _, text := range []string{table.String(), md.String()} {
		for _, want := range []string{"TTFA", "think tok/s", "answer tok/s", "hidden", "Reasoning: tok/s is the streamed tokens"} {
			if !strings.Contains(text, want) {
				t.Errorf("no %q in\n%s", want, text)
			}
		}
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "hidden_reasoning_tokens")
	if col < 0 || rows[1][col] != "200" || rows[2][col] != "100" {
		t.Errorf("CSV hidden_reasoning_tokens column %d: %v", col, rows)
	}
}

// A race without reasoning keeps its table as it was.
func TestNoReasoningNoThinkingColumns(t *testing.T) {
	var out bytes.Buffer
	if err := raceWithFailures().Write(&out, "table"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "think tok/s") || strings.Contains(out.String(), "Reasoning:") {
		t.Errorf("thinking columns without reasoning:\n%s", out.String())
	}
}

// `tpsrace report` over streams that thought has a Reasoning table in
// Markdown and HTML and the phases in its CSV.
func TestOverviewReasoning(t *testing.T) {
	thought := func(ttfa, thinking, answer float64, hidden int) Stream {
		r := okRun(ttfa, answer, ttfa+500)
		r.TTFAms, r.ThinkingTPS, r.AnswerTPS = &ttfa, &thinking, &answer
		r.ThinkingTokens, r.HiddenReasoningTokens = hidden, hidden
		return r
	}
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	o := Summarise([]Record{record("", day, thought(1000, 100, 100, 100), thought(3000, 100, 110, 300))})
	var md, out, page bytes.Buffer
	o.Write(&md, "markdown")
	o.Write(&out, "csv")
	if err := o.WriteHTML(&page, nil, nil); err != nil {
		t.Fatal(err)
	}
	if want := "| p | m | 2 | 2.00s | 100 | 105 | 200 |"; !strings.Contains(md.String(), "### Reasoning") || !strings.Contains(md.String(), want) {
		t.Errorf("no Reasoning table with %q in:\n%s", want, md.String())
	}
	if !strings.Contains(page.String(), "<h3>Reasoning</h3>") {
		t.Error("no Reasoning table in the HTML")
	}
	rows, _ := csv.NewReader(&out).ReadAll()
	if col := slices.Index(rows[0], "hidden_reasoning_tokens_p50"); col < 0 || rows[1][col] != "200.000" {
		t.Errorf("CSV hidden_reasoning_tokens_p50 column %d: %v", col, rows)
	}
	var plain bytes.Buffer
	Summarise([]Record{record("", day, okRun(100, 50, 1000))}).Write(&plain, "markdown")
	if strings.Contains(plain.String(), "Reasoning") {
		t.Errorf("a Reasoning table without reasoning:\n%s", plain.String())
	}
}
