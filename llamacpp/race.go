//go:build race

package llamacpp

// raceDetector: built with -race, whose instrumented copies make
// CopyBandwidth's figure about ten times too low.
const raceDetector = true
