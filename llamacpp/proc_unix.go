//go:build unix

package llamacpp

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// llama-server runs as the leader of its own process group (see procAttr),
// so signals reach anything it started too, and a ctrl+c in the terminal
// reaches tpsrace alone, which then stops the server in order.

// signalGroup sends SIGTERM (graceful) or SIGKILL to the server's process group.
func signalGroup(p *os.Process, graceful bool) error {
	sig := syscall.SIGKILL
	if graceful {
		sig = syscall.SIGTERM
	}
	return syscall.Kill(-p.Pid, sig)
}

// groupAlive reports whether any process of the server's group is left.
// EPERM means one exists that we may not signal: still alive.
func groupAlive(p *os.Process) bool {
	return !errors.Is(syscall.Kill(-p.Pid, 0), syscall.ESRCH)
}

// processCPUTime is the CPU time this process has used, user and system.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
