// Package simtest starts the simulator for a test: on loopback, closed when
// the test ends.
package simtest

import (
	"testing"

	"tpsrace/sim"
)

// Start serves the simulator with opts on a free loopback port until t ends.
func Start(t testing.TB, opts sim.Options) *sim.Server {
	t.Helper()
	srv, err := sim.Start("127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}
