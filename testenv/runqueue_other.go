//go:build !linux

package testenv

import "time"

// osRunQueueWait is unknown (-1) where the kernel does not report it.
func osRunQueueWait() time.Duration { return -1 }
