package probes_test

import (
	"testing"

	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

func startSim(t *testing.T) string {
	t.Helper()
	srv := simtest.Start(t, sim.Options{})
	return srv.URL()
}
