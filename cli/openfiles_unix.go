//go:build unix

package cli

import (
	"fmt"
	"io"
	"syscall"
)

// ensureOpenFiles raises the soft open-file limit (up to the hard one) when
// the race's streams need more, and says so when even the hard limit is too
// low, instead of letting streams fail with "socket: too many open files".
func ensureOpenFiles(streams int, stderr io.Writer) {
	need := openFilesNeeded(streams)
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) != nil || lim.Cur >= need {
		return
	}
	want := lim
	want.Cur = min(need, lim.Max)
	if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want) == nil {
		lim = want
	}
	if lim.Cur < need {
		fmt.Fprintf(stderr, "warning: the open-file limit is %d but %d streams need about %d: streams may fail with \"too many open files\" (raise it with: ulimit -n %d)\n",
			lim.Cur, streams, need, need)
	}
}
