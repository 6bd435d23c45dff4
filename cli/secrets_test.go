package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// A canary key, sent to a hostile server that echoes request headers into
// its error body, must not appear in any output of any format.
func TestKeyNeverAppearsInAnyOutput(t *testing.T) {
	const envKey, fileKey = "sk-env-canary-5e1f0c3a9b7d", "sk-file-canary-8a2c4e6f1d3b"
	t.Setenv("TPSRACE_CANARY_KEY", envKey)
	srv := simtest.Start(t, sim.Options{})
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", `providers:
  - name: echo-env
    base_url: `+srv.URL()+`
    api_key: ${TPSRACE_CANARY_KEY}
    model: "sim:fault=echo"
  - name: echo-file
    base_url: `+strings.Replace(srv.URL(), "http://", "http://admin:"+fileKey+"@", 1)+`
    api_key: `+fileKey+`
    model: "sim:fault=echo"
  - name: midstream
    base_url: `+srv.URL()+`
    api_key: ${TPSRACE_CANARY_KEY}
    model: "sim:tokens=20,fault=error,after=5"
`)
	for _, format := range []string{"table", "json", "csv", "markdown"} {
		out := filepath.Join(dir, "out."+format)
		code, stdout, stderr := run(t, dir, "bench", "--config", cfg, "--format", format)
		code2, _, stderr2 := run(t, dir, "bench", "--config", cfg, "--format", format, "--out", out)
		saved, _ := os.ReadFile(out)
		if code != 1 || code2 != 1 {
			t.Errorf("%s: exit %d/%d, want 1 (every stream failed)", format, code, code2)
		}
		if !strings.Contains(stdout+stderr, "warning") {
			t.Errorf("%s: the literal key in the file should warn", format)
		}
		for name, text := range map[string]string{"stdout": stdout, "stderr": stderr + stderr2, "--out": string(saved)} {
			for _, key := range []string{envKey, fileKey} {
				if strings.Contains(text, key) {
					t.Errorf("%s %s shows an API key:\n%s", format, name, text)
				}
			}
		}
		if !strings.Contains(stdout+string(saved), "REDACTED") {
			t.Errorf("%s: the echoed Authorization header should show as REDACTED", format)
		}
	}
}
