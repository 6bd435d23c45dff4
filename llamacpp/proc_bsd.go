//go:build unix && !linux

package llamacpp

import "syscall"

// procAttr starts llama-server in its own process group (there is no
// parent-death signal outside Linux).
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
