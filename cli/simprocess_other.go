//go:build !linux

package cli

import "syscall"

// simAttr: the platform's defaults (the race stops the simulator's process
// when it ends).
func simAttr() *syscall.SysProcAttr { return nil }
