package cli

import (
	"strconv"
	"strings"
	"testing"

	"tpsrace/probes"
	"tpsrace/tokens"
)

// The progress line counts what streamed: answer text and a tool call's
// arguments (the tool-call workload streams no text), once per race.
func TestProgressCountsToolCallArguments(t *testing.T) {
	var out strings.Builder
	p := newProgress(&out, 2, 1)
	args := []string{`{"city": `, `"Paris"}`}
	want := 0
	for _, a := range args {
		p.update(0, probes.Update{Tool: &probes.ToolDelta{Arguments: a}})
		want += tokens.Count(a)
	}
	p.tokens.Add(3) // the race's text tokens (probes.Race.Tokens)
	p.update(0, probes.Update{Done: &probes.Result{}})
	p.update(0, probes.Update{Done: &probes.Result{}})
	if got := out.String(); !strings.HasPrefix(got, "race 1/1: 2 streams done, ") || !strings.HasSuffix(got, ", "+strconv.Itoa(want+3)+" tokens\n") {
		t.Errorf("progress %q, want %d tokens (%d of arguments, 3 of text)", got, want+3, want)
	}
}
