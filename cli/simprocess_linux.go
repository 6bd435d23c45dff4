package cli

import "syscall"

// simAttr: the simulator's process in its own group (a Ctrl-C at the
// terminal is the race's to handle), killed if tpsrace dies first.
func simAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
