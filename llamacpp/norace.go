//go:build !race

package llamacpp

// raceDetector: built with -race (see race.go).
const raceDetector = false
