package watch

import (
	"context"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// Every tpsrace_* series of a simulated provider carries simulated="true",
// where a dashboard or an alert sees it, and a real provider's none, in a
// file that mixes the two too; the Go and process series describe tpsrace
// itself and carry no such label.
func TestSimulatedSeriesAreLabelled(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	simulated := []config.Provider{
		{Name: "ok", BaseURL: srv.URL(), Model: "sim:ttft=20ms,tps=500,tokens=20", SLO: config.SLO{TTFT: time.Second}},
		{Name: "broken", BaseURL: srv.URL(), Model: "sim:fault=503"},
	}
	results := probes.Race{Providers: simulated, Request: probes.Request{Prompt: "p", MaxTokens: 20}}.Run(context.Background(), nil)
	// A real provider, never raced here: Start makes its series at zero.
	real := config.Provider{Name: "groq", BaseURL: "https://api.groq.com/openai/v1", Model: "llama-3.3-70b-versatile"}
	for _, providers := range [][]config.Provider{simulated, {real}, append(slices.Clone(simulated), real)} {
		e := NewExporter(providers)
		e.Start("here", providers)
		e.Observe("here", simulated, results)
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
			sim := !strings.Contains(line, `provider="groq"`) && slices.ContainsFunc(providers, config.Provider.Simulated)
			labelled := strings.Contains(line, `simulated="true"`)
			if want := sim && strings.HasPrefix(line, "tpsrace_"); labelled != want || !want && strings.Contains(line, "simulated=") {
				t.Errorf("%d providers, %d simulated: %s", len(providers), config.SimulatedCount(providers), strings.TrimSpace(line))
			}
		}
		if n := len(families); !families["go_goroutines"] || !families["tpsrace_slo_met_total"] || !families["tpsrace_failures_total"] || !families[workloadGauges()[0].name] {
			t.Errorf("%d providers: %d families, want tpsrace's every kind and Go's: %v", len(providers), n, families)
		}
	}
}
