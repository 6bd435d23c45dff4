//go:build pprof

// A profiling build (`go build -tags pprof`) writes a CPU profile of the
// whole process when TPSRACE_CPUPROFILE names a file: for the dashboard in
// a real terminal, where no test harness can start the profiler. It stops
// after TPSRACE_CPUPROFILE_SECONDS (default 10), since the dashboard ends
// through os.Exit. docs/BENCHMARKS.md, "Dashboard CPU", shows its use.
package main

import (
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

func init() {
	path := os.Getenv("TPSRACE_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	seconds, err := strconv.ParseFloat(os.Getenv("TPSRACE_CPUPROFILE_SECONDS"), 64)
	if err != nil || seconds <= 0 {
		seconds = 10
	}
	time.AfterFunc(time.Duration(seconds*float64(time.Second)), func() {
		pprof.StopCPUProfile()
		f.Close()
	})
}
