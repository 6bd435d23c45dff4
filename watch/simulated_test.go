package watch

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// Every tpsrace_* series of a simulated watch carries simulated="true",
// where a dashboard or an alert sees it, and a real watch's none; the Go
// and process series describe tpsrace itself and carry no such label.
func TestSimulatedSeriesAreLabelled(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	providers := []config.Provider{
		{Name: "ok", BaseURL: srv.URL(), Model: "sim:ttft=20ms,tps=500,tokens=20", SLO: config.SLO{TTFT: time.Second}},
		{Name: "broken", BaseURL: srv.URL(), Model: "sim:fault=503"},
	}
	results := probes.Race{Providers: providers, Request: probes.Request{Prompt: "p", MaxTokens: 20}}.Run(context.Background(), nil)
	for _, simulated := range []bool{true, false} {
		e := NewExporter(simulated)
		e.Start("here", providers)
		e.Observe("here", providers, results)
		for _, g := range workloadGauges() { // every family, each with a series
			e.workload[g.name].With(prometheus.Labels{"provider": "ok", "model": "m", "probe": "here"}).Set(1)
		}
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		body, _ := io.ReadAll(rec.Body)
		families := map[string]bool{}
		for line := range strings.Lines(string(body)) {
			if strings.HasPrefix(line, "# TYPE ") {
				families[strings.Fields(line)[2]] = true
			}
			if strings.HasPrefix(line, "#") {
				continue
			}
			labelled := strings.Contains(line, `simulated="true"`)
			if want := simulated && strings.HasPrefix(line, "tpsrace_"); labelled != want || !want && strings.Contains(line, "simulated=") {
				t.Errorf("simulated=%v: %s", simulated, strings.TrimSpace(line))
			}
		}
		if n := len(families); !families["go_goroutines"] || !families["tpsrace_slo_met_total"] || !families["tpsrace_failures_total"] || !families[workloadGauges()[0].name] {
			t.Errorf("simulated=%v: %d families, want tpsrace's every kind and Go's: %v", simulated, n, families)
		}
	}
}
