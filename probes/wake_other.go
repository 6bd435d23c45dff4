//go:build !linux

package probes

// startWakeProbe starts the pipe's probe: only Linux has timer fds.
func startWakeProbe() *wakeProbe { return startPipeProbe() }
