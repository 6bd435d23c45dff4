package report

import (
	"bytes"
	"strings"
	"testing"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/probes"
)

func TestErrorShape(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"connection closed mid-stream after 598 tokens", "connection closed mid-stream after 1813 tokens"},
		{`malformed event (not JSON): "{\"id\":\"chatcmpl-2847\",\"x"`, `malformed event (not JSON): "{\"id\":\"chatcmpl-2850\"}"`},
		{"429 rate_limit_exceeded: try again in 1.2s (retry after 2)", "429 rate_limit_exceeded: try again in 0.35s (retry after 1)"},
	} {
		if errorShape(tc.a) != errorShape(tc.b) {
			t.Errorf("%q and %q: shapes %q and %q, want them alike", tc.a, tc.b, errorShape(tc.a), errorShape(tc.b))
		}
	}
	if a, b := "503 service unavailable", "total time limit 3s reached"; errorShape(a) == errorShape(b) {
		t.Errorf("%q and %q read as alike", a, b)
	}
}

// A server that died mid-bench: one line for the streams cut short, one for
// the refused ones, however many; identical messages keep their plain count.
func TestAlikeFailuresAreOneLine(t *testing.T) {
	cut := func(tokens string) probes.Result {
		return probes.Result{Err: &probes.Failure{Kind: probes.KindNetwork, Message: "connection closed mid-stream after " + tokens + " tokens"}, End: 5 * msec}
	}
	refused := probes.Result{Err: &probes.Failure{Kind: probes.KindNetwork, Message: "connection refused"}, End: msec}
	cfg := &config.Config{Prompt: "p", MaxTokens: 100, Providers: []config.Provider{{Name: "laptop", Model: "tiny"}}}
	races := [][][]probes.Result{{{cut("598")}}, {{cut("1813")}}, {{refused}}, {{cut("64")}}, {{refused}}}
	var md bytes.Buffer
	if err := build(benchdoc.Input{Config: cfg, Concurrency: 1, Races: races}).Write(&md, "table"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"laptop failed: 3 alike, the first: connection closed mid-stream after 598 tokens\n", "laptop failed: 2 × connection refused\n"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("want %q in:\n%s", want, md.String())
		}
	}
}
