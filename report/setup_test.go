package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
)

// A provider raced at C=1 and at C=4 is two groups, never one row; each
// setup counts its races as its tables do, and the page says the same.
func TestSetupsAreNeverMixed(t *testing.T) {
	records := testdataRecords(t, "history-eu-west.jsonl", "history-us-east.jsonl", "bench-c1.json", "bench-c4.json")
	o := Summarise(records)
	if len(o.Setups) != 2 || o.Setups[0].Concurrency != 1 || o.Setups[1].Concurrency != 4 {
		t.Fatalf("setups %+v: want C=1 and C=4", o.Setups)
	}
	for _, sr := range o.Setups {
		groups := inSetup(o.Providers, sr.Setup)
		if len(groups) != 5 {
			t.Errorf("C=%d: %d provider rows, want 5", sr.Concurrency, len(groups))
		}
		for _, g := range groups { // every provider took part in every race of the files
			if g.Races != sr.Races {
				t.Errorf("C=%d: %s in %d races, the setup counts %d", sr.Concurrency, g.Provider, g.Races, sr.Races)
			}
		}
	}
	if n := len(o.Providers); n != 10 {
		t.Errorf("%d provider rows, want 5 per setup", n)
	}
	var page bytes.Buffer
	o.WriteHTML(&page, records, []string{"f"})
	for _, want := range []string{"8 records, 12 races from f", `<p class="meta">7 records, 9 races</p>`, `<p class="meta">1 record, 3 races</p>`} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the page does not say %q", want)
		}
	}
}

// A chat race and a tool-call race of the same prompt, max_tokens and
// concurrency are two setups, each labelled with what was raced.
func TestWorkloadsAreSetups(t *testing.T) {
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	chat, toolCall := record("", at, okRun(100, 50, 1000)), record("", at, okRun(300, 20, 400))
	toolCall.Workload = "tool-call"
	o := Summarise([]Record{chat, toolCall})
	if len(o.Setups) != 2 || len(o.Providers) != 2 {
		t.Fatalf("setups %+v, %d provider rows: want chat and tool-call apart", o.Setups, len(o.Providers))
	}
	var md bytes.Buffer
	o.Write(&md, "markdown")
	if !strings.Contains(md.String(), "## workload tool-call · C=") {
		t.Errorf("the tool-call setup is not labelled with its workload:\n%s", md.String())
	}
}

// --compare refuses results of different setups, naming each difference,
// unless forced; forced, a setup on one side only is shown one-sided.
func TestCompareRefusesDifferentSetups(t *testing.T) {
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	raced := func(prompt string, maxTokens, c int) Overview {
		r := record("", at, okRun(100, 50, 1000))
		r.Prompt, r.MaxTokens, r.Concurrency, r.Runs = prompt, maxTokens, c, 1
		return Summarise([]Record{r})
	}
	base := raced("hi", 100, 1)
	if changes, err := Compare(base, raced("hi", 100, 1), false); err != nil || len(changes) != len(comparedFigures) {
		t.Errorf("same setup: %d changes, %v", len(changes), err)
	}
	_, err := Compare(base, raced("hello", 200, 4), false)
	if err == nil || !strings.Contains(err.Error(), `concurrency 1 vs 4; max_tokens 100 vs 200; prompt "hi" vs "hello"`) {
		t.Errorf("different setups: %v; want every difference named", err)
	}
	toolCall := raced("hi", 100, 1)
	toolCall.Setups[0].Workload = "tool-call"
	for i := range toolCall.Providers {
		toolCall.Providers[i].Setup.Workload = "tool-call"
	}
	if _, err := Compare(base, toolCall, false); err == nil || !strings.Contains(err.Error(), "(workload chat vs tool-call)") {
		t.Errorf("different workloads: %v; want the workloads named", err)
	}
	if changes, err := Compare(base, raced("hi", 100, 4), true); err != nil || len(changes) != len(comparedFigures) || *changes[0].A != 100 || *changes[0].B != 100 {
		t.Errorf("forced: %d changes, %v; want the two setups compared", len(changes), err)
	}
	both := Summarise([]Record{record("", at, okRun(100, 50, 1000)), {Bench: benchdoc.Bench{Schema: benchdoc.Schema, StartedAt: at, Concurrency: 4, Runs: 1,
		Providers: []Provider{{Name: "p", Model: "m", Streams: []Stream{okRun(300, 20, 3000)}}}}}})
	base = Summarise([]Record{record("", at, okRun(200, 40, 1500))})
	if _, err := Compare(base, both, false); err == nil || !strings.Contains(err.Error(), "B alone raced C=4") {
		t.Errorf("a setup in B only: %v", err)
	}
	changes, err := Compare(base, both, true)
	if err != nil || len(changes) != 2*len(comparedFigures) || changes[0].B == nil || changes[len(comparedFigures)].A != nil {
		t.Errorf("forced: %d changes, %v; want the shared setup compared and C=4 one-sided", len(changes), err)
	}
}
