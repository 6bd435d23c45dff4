package probes_test

import (
	"testing"

	"tpsrace/sim"
)

func startSim(t *testing.T) string {
	t.Helper()
	srv, err := sim.Start("127.0.0.1:0", sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.URL()
}
