package cli

import (
	"os"
	"testing"
)

// TestMain lets this test binary stand in for tpsrace where a command
// starts tpsrace again: a --simulated race runs `tpsrace sim` as a child
// process of os.Executable(), which here is the test binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "sim" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
