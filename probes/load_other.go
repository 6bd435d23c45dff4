//go:build !unix

package probes

import "time"

// processCPU is unknown (-1) where the platform does not report it.
func processCPU() time.Duration { return -1 }
