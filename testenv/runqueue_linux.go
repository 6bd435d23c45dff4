//go:build linux

package testenv

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// osRunQueueWait is how long this process's threads have waited, in all,
// on the kernel's run queue for a core (the second field of
// /proc/self/task/*/schedstat); -1 where the kernel does not say.
func osRunQueueWait() time.Duration {
	paths, _ := filepath.Glob("/proc/self/task/*/schedstat")
	if len(paths) == 0 {
		return -1
	}
	var sum time.Duration
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread has exited
		}
		if f := strings.Fields(string(b)); len(f) >= 2 {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			sum += time.Duration(n)
		}
	}
	return sum
}
