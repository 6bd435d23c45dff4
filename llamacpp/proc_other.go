//go:build !unix

package llamacpp

import (
	"os"
	"syscall"
	"time"
)

// Without Unix process groups llama-server (a single process) is killed
// directly: there is no graceful signal to send it.

func procAttr() *syscall.SysProcAttr { return nil }

func signalGroup(p *os.Process, graceful bool) error { return p.Kill() }

// groupAlive is only asked once the server process has exited.
func groupAlive(p *os.Process) bool { return false }

// processCPUTime is not known here.
func processCPUTime() (time.Duration, bool) { return 0, false }
