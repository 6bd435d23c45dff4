package cli

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tpsrace/metrics"
	"tpsrace/report"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// `watch --workload NAME` races every workload against the simulator, and
// its gauges are the workload's described figures (metrics.FiguresOf) of
// the same races as the bench document (the history line) has them: one
// run each, a sweep, a cold and warm pair, a conversation. The document
// keeps times to the µs, the gauges at full precision.
func TestWatchExportsEachWorkloadsFigures(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	for _, tc := range []struct {
		workload string
		args     []string
		model    string
	}{
		// 10 tokens over 50 ms, not 5: a speed (output's, the tool
		// call's arguments') is undefined when one read takes every event,
		// which a stall of the test's machine as long as the answer does;
		// CI saw it once at 2,000 tok/s.
		{"tool-call", nil, "sim:ttft=5ms,tps=200"},
		{"json", nil, "sim:ttft=5ms,tps=200"},
		{"long-context", []string{"--input-tokens", "1000,4000"}, "sim:ttft=5ms,tps=200,prefill=50000"},
		{"cached-prefix", []string{"--input-tokens", "2000"}, "sim:ttft=5ms,tps=200,prefill=50000,prefixcache=1"},
		{"multi-turn", nil, "sim:ttft=5ms,tps=200,tokens=10"},
	} {
		t.Run(tc.workload, func(t *testing.T) {
			dir := t.TempDir()
			cfg := write(t, dir, "p.yaml", "max_tokens: 10\nproviders:\n  - {name: p, base_url: "+srv.URL()+`, model: "`+tc.model+`"}`+"\n")
			history := filepath.Join(dir, "h.jsonl")
			exposed, _ := scrapeWatch(t, 1, append([]string{"--config", cfg, "--workload", tc.workload, "--interval", "1h", "--history", history}, tc.args...)...)
			records, err := report.ReadRecords(history)
			if err != nil || len(records) != 1 || records[0].Workload != tc.workload {
				t.Fatalf("history: %d records (%v), want one %s run", len(records), err, tc.workload)
			}
			b := records[0].Bench
			gauged := 0
			for _, f := range metrics.FiguresOf(b.WorkloadOf(), false, b.Concurrency) {
				if f.Gauge == "" {
					continue
				}
				gauged++
				want, ok := f.GaugeValue(f.Of(b.Figures()[0]))
				got, set := gaugeValue(exposed, f.Gauge)
				tolerance := 1e-5 // the document's µs
				if f.Unit != metrics.Seconds {
					tolerance = 1e-3 * max(1, math.Abs(want)) // a ratio or a speed of µs times
				}
				if !ok || !set || math.Abs(got-want) > tolerance {
					t.Errorf("%s = %v (set %v), bench's figure %v (defined %v)", f.Gauge, got, set, want, ok)
				}
			}
			if gauged == 0 {
				t.Errorf("%s: no figure with a gauge", tc.workload)
			}
		})
	}
}

// gaugeValue is the value of the one series of name in an exposition.
func gaugeValue(exposed, name string) (float64, bool) {
	for line := range strings.Lines(exposed) {
		if rest, ok := strings.CutPrefix(line, name+"{"); ok {
			_, value, _ := strings.Cut(rest, "} ")
			v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			return v, err == nil
		}
	}
	return 0, false
}
