package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// simURLPrefix begins the line `tpsrace sim` prints first: its base URL.
const simURLPrefix = "tpsrace simulator: base_url "

// simStartLimit is how long the simulator's process may take to listen.
const simStartLimit = 10 * time.Second

// startSimulator runs the built-in simulator of a --simulated race (and of
// the dashboard's fallback) as a child process, `tpsrace sim --addr
// 127.0.0.1:0` of this same executable, and returns its base URL and how
// to stop it. In the racing process its goroutines took turns with the
// probes' on the client's cores and its CPU counted as the client's, so
// the referee's client_saturated measured tpsrace's own simulator
// (docs/METRICS.md, "The referee", has the numbers). The child has its own
// process group, so a Ctrl-C reaches only the race, which then stops it;
// on Linux it also dies with its parent (simAttr). What it writes to
// stderr (nothing, unless it cannot start) is kept for the error.
func startSimulator() (url string, stop func(), err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(exe, "sim", "--addr", "127.0.0.1:0")
	var said bytes.Buffer // read only once Wait has returned
	cmd.Stderr, cmd.SysProcAttr = &said, simAttr()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		if cmd.Process.Signal(os.Interrupt) != nil { // no interrupt on Windows
			cmd.Process.Kill()
		}
		cmd.Wait()
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
		io.Copy(io.Discard, out) // the rest of its banner
	}()
	select {
	case s := <-line:
		if url, ok := strings.CutPrefix(strings.TrimSpace(s), simURLPrefix); ok {
			return url, stop, nil
		}
		stop()
		return "", nil, fmt.Errorf("the simulator's process did not say where it listens%s", quoted(&said))
	case <-time.After(simStartLimit):
		stop()
		return "", nil, fmt.Errorf("the simulator's process did not listen within %s%s", simStartLimit, quoted(&said))
	}
}

// quoted is ": " and what the simulator's process wrote to stderr, "" for
// nothing.
func quoted(said *bytes.Buffer) string {
	if s := strings.TrimSpace(said.String()); s != "" {
		return ": " + s
	}
	return ""
}
