// Command fakeserver stands in for llama-server in package llamacpp's tests.
// It takes llama-server's flags, logs like it, and serves the simulator
// (tpsrace/sim) with a loading phase; its -fake-* flags make it misbehave.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tpsrace/sim"
)

func main() {
	model := flag.String("m", "", "model file")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 8080, "port to listen on")
	flag.Bool("metrics", false, "serve /metrics (the simulator always does)")
	parallel := flag.Int("parallel", 0, "slots")
	flag.Int("ngl", 0, "GPU layers (ignored)")
	load := flag.Duration("fake-load", 0, "how long /health answers 503 Loading model")
	neverReady := flag.Bool("fake-never-ready", false, "answer 503 Loading model forever")
	exitWith := flag.String("fake-exit", "", "print this and exit 1 instead of serving")
	gpu := flag.String("fake-gpu", "", "log a llama.cpp device line naming this GPU")
	ignoreTerm := flag.Bool("fake-ignore-term", false, "ignore SIGTERM")
	child := flag.Bool("fake-child", false, "start a child process that sleeps until killed")
	pidFile := flag.String("fake-pidfile", "", `write "PID CHILDPID" to this file`)
	sleeper := flag.Bool("fake-sleep", false, "be the child: sleep until killed (or for two minutes)")
	flag.Parse()

	if *sleeper {
		time.Sleep(2 * time.Minute) // long enough for any test, short enough if a failing one leaves it behind
		return
	}
	fmt.Fprintf(os.Stderr, "build: 0 (fakeserver) for tpsrace tests\nmain: command line: %s\nmain: loading model %s\n", strings.Join(os.Args[1:], " "), *model)
	if *exitWith != "" {
		fmt.Fprintln(os.Stderr, *exitWith)
		os.Exit(1)
	}
	if _, err := os.Stat(*model); err != nil {
		fmt.Fprintf(os.Stderr, "llama_model_load: error loading model: %v\n", err)
		os.Exit(1)
	}
	if *gpu != "" {
		fmt.Fprintf(os.Stderr, "llama_model_load_from_file_impl: using device CUDA0 (%s) (0000:01:00.0) - 23671 MiB free\n", *gpu)
	}

	childPID := 0
	if *child {
		exe, err := os.Executable()
		check(err)
		c := exec.Command(exe, "-fake-sleep")
		check(c.Start())
		childPID = c.Process.Pid
		// SIGTERM reaches the child too when it is sent to the process
		// group: wait for it (no zombie left behind), then exit.
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		go func() {
			<-term
			_ = c.Wait()
			os.Exit(0)
		}()
	}
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	if *pidFile != "" {
		check(os.WriteFile(*pidFile, fmt.Appendf(nil, "%d %d", os.Getpid(), childPID), 0o600))
	}

	loadTime := *load
	if *neverReady {
		loadTime = 24 * time.Hour
	}
	addr := net.JoinHostPort(*host, strconv.Itoa(*port))
	ln, err := net.Listen("tcp", addr)
	check(err)
	fmt.Fprintf(os.Stderr, "main: server is listening on http://%s - starting the main loop\n", addr)
	check(http.Serve(ln, sim.NewHandler(sim.Options{LoadTime: loadTime, Slots: *parallel})))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		os.Exit(1)
	}
}
