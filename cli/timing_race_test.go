//go:build race

package cli

// timingAsserted: under the race detector, which slows every memory access
// several times over, a timing bound would measure the detector: the
// figures are logged, not held to it (docs/TESTING.md).
const timingAsserted = false
