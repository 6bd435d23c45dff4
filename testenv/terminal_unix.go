//go:build unix

package testenv

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Signal sends sig to the binary.
func (term *Terminal) Signal(sig syscall.Signal) {
	term.t.Helper()
	b, err := os.ReadFile(term.pidFile)
	pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || perr != nil {
		term.t.Fatalf("no process id: %v %v", err, perr)
	}
	if err := syscall.Kill(pid, sig); err != nil {
		term.t.Fatal(err)
	}
}
