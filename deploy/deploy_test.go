package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"tpsrace/testenv"
)

func TestPrometheusConfigAndRules(t *testing.T) {
	out, err := exec.Command(testenv.Require(t, "promtool"), "check", "config", "prometheus/prometheus.yml").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "3 rules found") {
		t.Errorf("promtool check config: %v\n%s", err, out)
	}
}

// systemd-analyze reports unknown keys and bad values without failing, so
// any output is a failure. The binary is swapped for one that exists here.
func TestSystemdUnitVerifies(t *testing.T) {
	bin := testenv.Require(t, "systemd-analyze")
	raw, err := os.ReadFile("systemd/tpsrace-watch.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := filepath.Join(t.TempDir(), "tpsrace-watch.service")
	os.WriteFile(unit, []byte(strings.ReplaceAll(string(raw), "/usr/local/bin/tpsrace", "/bin/true")), 0o644)
	if out, err := exec.Command(bin, "verify", "--man=no", unit).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
