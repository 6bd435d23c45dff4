package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// A providers file pointed at a `tpsrace sim` started by hand races the
// simulator as surely as --simulated does, and every view says so: the
// JSON's "simulated", the table's note. Where it races sim: models beside
// a real provider, the note names the simulated ones only.
func TestSimulatorServedProvidersAreLabelled(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	real := realLookingProvider(t, map[string]string{"llama-3.3-70b-versatile": "sim:ttft=5ms,tps=2000,tokens=20"})
	simOnly := write(t, dir, "sim.yaml", `max_tokens: 20
providers:
  - name: bench-wafer
    base_url: `+srv.URL()+`
    model: "sim:ttft=5ms,tps=2000,tokens=20"
`)
	mixed := write(t, dir, "mixed.yaml", `max_tokens: 20
providers:
  - name: bench-wafer
    base_url: `+srv.URL()+`
    model: "sim:ttft=5ms,tps=2000,tokens=20"
  - name: groq
    base_url: `+real+`
    api_key: test
    model: llama-3.3-70b-versatile
`)
	realOnly := write(t, dir, "real.yaml", `max_tokens: 20
providers:
  - name: groq
    base_url: `+real+`
    api_key: test
    model: llama-3.3-70b-versatile
`)
	for _, c := range []struct {
		file      string
		simulated bool
		note      string // in the Markdown; "" for none
	}{
		{simOnly, true, "SIMULATED providers (tpsrace's simulator): these are not real measurements of any provider."},
		{mixed, true, "SIMULATED: bench-wafer (tpsrace's simulator, sim: models): their figures are not real measurements of any provider."},
		{realOnly, false, ""},
	} {
		code, out, errOut := run(t, dir, "bench", "--config", c.file, "--format", "json")
		var doc struct{ Simulated bool }
		if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
			t.Fatalf("%s: exit %d: %s\n%s", c.file, code, errOut, out)
		}
		if doc.Simulated != c.simulated {
			t.Errorf("%s: JSON says simulated %v, want %v", c.file, doc.Simulated, c.simulated)
		}
		code, out, errOut = run(t, dir, "bench", "--config", c.file, "--format", "markdown")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, errOut)
		}
		if got := strings.Contains(out, "SIMULATED"); got != (c.note != "") || c.note != "" && !strings.Contains(out, c.note) {
			t.Errorf("%s: Markdown should say %q:\n%s", c.file, c.note, out)
		}
	}
}

// realLookingProvider is an OpenAI-compatible server that serves each
// model of schedules under its own name, as a real provider would: the
// simulator behind it, asked for the model's schedule.
func realLookingProvider(t *testing.T, schedules map[string]string) string {
	t.Helper()
	simulator := sim.NewHandler(sim.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		for model, schedule := range schedules {
			body = bytes.Replace(body, []byte(`"model":"`+model+`"`), []byte(`"model":"`+schedule+`,served=`+model+`"`), 1)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		simulator.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}
