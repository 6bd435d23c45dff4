package llamacpp

import "syscall"

// procAttr starts llama-server in its own process group. Pdeathsig is the
// backstop for the one exit Stop cannot see: tpsrace itself being killed
// (SIGKILL, OOM killer), when the kernel then kills the server.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
