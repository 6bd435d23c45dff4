package cli

import (
	"strings"
	"testing"
)

// Under the tool-call workload an SLO bound on the answer's text would
// miss on every stream: refused before any request, naming the flag and
// the bound that works; --slo-e2e is accepted.
func TestToolCallSLOBounds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--simulated", "--workload", "tool-call", "--slo-ttft", "500ms"}, "--slo-ttft under --workload tool-call: a tool call's answer has no text"},
		{[]string{"bench", "--simulated", "--workload", "tool-call", "--slo-output-tps", "50"}, "--slo-output-tps under --workload tool-call"},
	} {
		code, _, errOut := run(t, t.TempDir(), tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "--slo-e2e") {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	code, out, errOut := run(t, t.TempDir(), "bench", "--simulated", "--workload", "tool-call", "--only", "sim-lpu", "--slo-e2e", "10s", "--format", "json")
	if code != 0 || !strings.Contains(out, `"slo_missed": []`) {
		t.Fatalf("--slo-e2e under tool-call: exit %d, stderr %q, want 0 and a stream that met it:\n%s", code, errOut, out)
	}
}
