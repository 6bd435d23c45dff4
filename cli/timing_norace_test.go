//go:build !race

package cli

// timingAsserted: timing bounds hold without the race detector.
const timingAsserted = true
