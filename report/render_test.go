package report

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
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

// build is the document of races, with this package's renderers.
func build(in benchdoc.Input) *Bench { return Of(benchdoc.Build(in)) }

func TestRenderersOfAReport(t *testing.T) {
	cfg := &config.Config{Prompt: "p", MaxTokens: 100, Providers: []config.Provider{
		{Name: "slow|pipe", Model: "a"}, {Name: "fast", Model: "b"}, {Name: "down", Model: "c"}}}
	failed := probes.Result{Err: &probes.Failure{Kind: probes.KindHTTP, Status: 503, Message: "busy"}, End: 5 * msec}
	races := [][][]probes.Result{
		{{stream(100*msec, 20*msec, 11)}, {stream(50*msec, 5*msec, 11)}, {failed}},
		{{stream(120*msec, 20*msec, 11)}, {stream(70*msec, 5*msec, 11)}, {failed}},
	}
	b := build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: races})
	var md bytes.Buffer
	if err := b.Write(&md, "markdown"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "aggregate") {
		t.Errorf("at C=1 the table leaves aggregate tok/s out:\n%s", md.String())
	}
	if !strings.Contains(md.String(), `slow\|pipe`) || !strings.Contains(md.String(), "- down failed: 2 × 503 busy") {
		t.Errorf("markdown:\n%s", md.String())
	}
	var csv bytes.Buffer
	b.Write(&csv, "csv")
	if line := strings.Split(csv.String(), "\n")[5]; !strings.HasPrefix(line, "down,c,0,0,false,503 busy,,,") {
		t.Errorf("csv row of a failed run: %q (undefined figures must be blank)", line)
	}
	if err := b.Write(&csv, "xml"); err == nil {
		t.Error("unknown format: want an error")
	}
}

func TestCSVCellDefusesFormulasButNotNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")", "+1+1": "'+1+1", "-cmd": "'-cmd", "@SUM(A1)": "'@SUM(A1)",
		"-1.5": "-1.5", "+3": "+3", "plain": "plain", "": "", "a\x1b[2Jb": "ab",
	} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// The report shows the o200k count beside the provider's by
// metrics.TokenCountsDiffer, the dashboard's rule: 95 against 100 is not
// flagged, 94 is.
func TestTokensCellFlagsByTheSharedRule(t *testing.T) {
	for usage, want := range map[int]string{95: "95", 105: "105", 94: "94 (o200k 100)"} {
		r := stream(10*msec, msec, 100)
		r.Usage.CompletionTokens = usage
		b := build(benchdoc.Input{Config: &config.Config{Prompt: "p", Providers: []config.Provider{{Name: "x"}}}, Races: [][][]probes.Result{{{r}}}})
		if got := tokensCell(b.Providers[0]); got != want {
			t.Errorf("usage %d, o200k 100: %q, want %q", usage, got, want)
		}
	}
}

// Every row of a simulated bench's CSV says so, and a real one's says not:
// the table's SIMULATED note has no place in a CSV.
func TestCSVMarksSimulated(t *testing.T) {
	for _, simulated := range []bool{true, false} {
		models := []string{"m", "n"}
		if simulated {
			models = []string{"sim:lpu", "sim:gpu"}
		}
		cfg := &config.Config{Prompt: "p", MaxTokens: 100, Providers: []config.Provider{{Name: "a", Model: models[0]}, {Name: "b", Model: models[1]}}}
		races := [][][]probes.Result{{{stream(100*msec, 20*msec, 11)}, {stream(50*msec, 5*msec, 11)}}}
		b := build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: races})
		var out bytes.Buffer
		if err := b.Write(&out, "csv"); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if col := len(rows[0]) - 1; rows[0][col] != "simulated" || len(rows) != 3 {
			t.Fatalf("%d rows, last column %q: want a header and 2, simulated last", len(rows), rows[0][col])
		}
		for _, row := range rows[1:] {
			if got := row[len(row)-1]; got != strconv.FormatBool(simulated) {
				t.Errorf("simulated=%v: %s's row says simulated %q", simulated, row[0], got)
			}
		}
	}
}

// The SIMULATED note claims no reason (no keys, --simulated, a replay of
// either): only what is true of them all.
func TestSimulatedNoteClaimsNoReason(t *testing.T) {
	for _, simulated := range []bool{true, false} {
		model := "m"
		if simulated {
			model = "sim:lpu"
		}
		cfg := &config.Config{Prompt: "p", MaxTokens: 100, Providers: []config.Provider{{Name: "a", Model: model}}}
		b := build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: [][][]probes.Result{{{stream(100*msec, 20*msec, 11)}}}})
		for _, f := range []string{"table", "markdown"} {
			var out bytes.Buffer
			b.Write(&out, f)
			note := "SIMULATED providers (tpsrace's simulator): these are not real measurements of any provider."
			if strings.Contains(out.String(), note) != simulated || strings.Contains(out.String(), "API keys") {
				t.Errorf("simulated=%v, %s:\n%s", simulated, f, out.String())
			}
		}
	}
}
