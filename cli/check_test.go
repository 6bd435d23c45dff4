package cli

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// check asks the simulator over loopback for its models: a listed model
// and a parameterised one pass, a typo fails with exit 1 and a pointer to
// similar names, and no token is generated (the simulator's own counters).
func TestCheckAsksEachProviderForItsModel(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	t.Setenv("TPSRACE_CHECK_KEY", "sk-check-canary-7d2e9f")
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", `providers:
  - name: listed
    base_url: `+srv.URL()+`
    api_key: ${TPSRACE_CHECK_KEY}
    model: "sim:gpu"
  - name: parameterised
    base_url: `+srv.URL()+`
    model: "sim:ttft=10ms,tps=100"
  - name: typo
    base_url: `+srv.URL()+`
    model: "sim:laptopp"
  - name: nokey
    base_url: `+srv.URL()+`
    api_key: ${TPSRACE_CHECK_UNSET}
    model: "sim:gpu"
`)
	code, out, errOut := run(t, dir, "check", "--config", cfg)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (one model is not served); stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"p.yaml: valid; checking 3 providers, 1 skipped",
		"listed         sim:gpu                ok: listed among 4 models",
		"parameterised  sim:ttft=10ms,tps=100  ok: not among the 4 listed, but GET /models/sim:ttft=10ms,tps=100 knows it",
		"typo           sim:laptopp            NOT SERVED: not among the 4 models listed (similar: sim:laptop)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "skipping nokey: TPSRACE_CHECK_UNSET is not set") || strings.Contains(out+errOut, "sk-check-canary") {
		t.Errorf("stderr should skip nokey and never show the key:\n%s", errOut)
	}
	status, metrics := httpGet(t, strings.TrimSuffix(srv.URL(), "/v1")+"/metrics")
	if status != 200 || !strings.Contains(metrics, "llamacpp:prompt_tokens_total 0\n") || !strings.Contains(metrics, "llamacpp:tokens_predicted_total 0\n") {
		t.Errorf("check spent tokens: the simulator counted\n%s", metrics)
	}
	if code, _, errOut := run(t, dir, "check", "--config", write(t, dir, "bad.yaml", "providers:\n  - name: x\n    modle: m\n")); code != 2 || !strings.Contains(errOut, "bad.yaml:3:5") {
		t.Errorf("bad config: exit %d, %q; want 2 and file:line:col", code, errOut)
	}
}

func httpGet(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
