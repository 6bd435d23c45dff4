package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// The bench document of every workload, replayed from a recorded
// simulated race (testdata/workloads/*.tpsr.gz: bench --simulated
// --workload W --max-tokens 20 --runs 2 --slo-ttft 300ms, chat at
// --concurrency 2), is byte for byte its golden: a change to how the
// document is built that is not meant to change it (issue 36: the JSON
// from metrics types) shows here. A replay computes every figure from the
// recording, so the bytes do not depend on this machine's timing; `go test
// ./cli -run TestWorkloadDocuments -update` rewrites the goldens when a
// change of the document is meant.
func TestWorkloadDocuments(t *testing.T) {
	recordings, err := filepath.Glob("testdata/workloads/*.tpsr.gz")
	if err != nil || len(recordings) == 0 {
		t.Fatalf("no recordings in testdata/workloads (%v)", err)
	}
	for _, rec := range recordings {
		abs, err := filepath.Abs(rec)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(rec), ".tpsr.gz"), func(t *testing.T) {
			code, out, errOut := run(t, t.TempDir(), "replay", abs, "--bench", "--format", "json")
			if code != 0 {
				t.Fatalf("replay %s: exit %d: %s", rec, code, errOut)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}
