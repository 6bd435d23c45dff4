package testenv

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// Unavailable ends a test whose environment lacks something that is not a
// part to install (a device such as /dev/full, a resource limit, a
// permission): under CI it fails, elsewhere it skips, saying why.
func Unavailable(t testing.TB, reason string) {
	t.Helper()
	if CI() {
		t.Fatalf("CI is set and this test cannot run: %s", reason)
	}
	t.Skipf("skipped: %s (under CI this test fails instead)", reason)
}

// OtherOS skips a test that holds nothing on this operating system (a
// permission bit on Windows): there is nothing to install and nothing to
// fail.
func OtherOS(t testing.TB, reason string) {
	t.Helper()
	t.Skipf("skipped on this operating system: %s", reason)
}

// Short skips, under `go test -short`, a test that does what a quick run
// leaves out (what: "builds the binary").
func Short(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("skipped with -short: it %s", what)
	}
}

// Binary builds tpsrace from the module's root into a temporary folder and
// returns its path; it skips under -short.
func Binary(t testing.TB) string {
	t.Helper()
	Short(t, "builds the binary")
	root, ok := moduleRoot()
	if !ok {
		t.Fatal("testenv: no go.mod above the test's folder")
	}
	bin := filepath.Join(t.TempDir(), "tpsrace")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
