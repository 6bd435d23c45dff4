package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// bench --warm opens the connections before the release: no stream of the
// first race dials (phases_ms.connected is null); without it, every one does.
func TestBenchWarm(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "max_tokens: 20\nproviders:\n  - {name: a, base_url: "+srv.URL()+", model: \"sim:ttft=5ms,tps=2000,tokens=20\"}\n")
	for _, warm := range []bool{false, true} {
		args := []string{"bench", "--config", cfg, "--concurrency", "3", "--format", "json", "--out", "r.json"}
		if warm {
			args = append(args, "--warm")
		}
		if code, _, errOut := run(t, dir, args...); code != 0 {
			t.Fatalf("warm %v: exit %d: %s", warm, code, errOut)
		}
		raw, err := os.ReadFile(filepath.Join(dir, "r.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Providers []struct {
				Runs []struct {
					Phases struct {
						Connected *float64 `json:"connected"`
					} `json:"phases_ms"`
				} `json:"runs"`
			} `json:"providers"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		for i, r := range doc.Providers[0].Runs {
			if dialed := r.Phases.Connected != nil; dialed == warm {
				t.Errorf("warm %v: stream %d dialed %v", warm, i, dialed)
			}
		}
	}
}
